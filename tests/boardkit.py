"""A whole scripted board game (King of the Dice: The Board Game) for the tests that tell
it: tests/test_board_words.py and tests/test_german_words.py."""

from __future__ import annotations

GAME = """\
players Kriszti Miki Norbi
tiles 20
card dev-2 5 6r sum 20
top 4 scoundrel-red-6
top 5 land-developer-red-6
top 3 trainer-6-1-3
top 2 thief-red-sum
roll 6r 6g 6b 5r 5g 2b
fix 6 4b
take 5
gem white
done
top 5 dev-2
roll 1r 1g 2b 3r 4g 2b
down 1
done
roll 6r 6g 6b 5r 5g 2b
take 4
replace Kriszti
done
top 4 -
roll 1r 2g 3b 4r 5g 1b
roll 1r 2g 3b 4r 5g 1b
down 2
done
top 2 thief-descending
roll 1r 2g 3b 4r 5g 1b
down 2
undo
down 5
done
card dev-3 5 2g sum 28
top 5 dev-3
roll 1r 1g 2b 3r 4g 2b
down 5
done
card dev-4 5 2g sum 28
top 5 dev-4
roll 1g 3b 2r 2g 4b 5r
discard land-developer-red-6 super
take 3
fire
done
roll 5r 4g 2b 3r 1g 2b
discard super super 2b
take 2
steal Kriszti trainer-6-1-3
done
top 1 merchant-run
top 2 thief-red-sum
roll 1r 2g 3b 4r 5g 6b
take 1
done
tiles 1
roll 6r 6r 2b 3b 1g 4g
take 2
steal Norbi gold
done
sheet Kriszti 3 2
sheet Miki 1 1
sheet Norbi 2 3
"""
"""Every action word of the board game: cards entered and turned up, a used-up deck, the
tiles counted, a fix, the three ways to discard, cards face up (the merchant's three stars
and its gold gem) and face down, every effect, an undo, the end and the scoring sheet."""
LINES = GAME.splitlines()
NAMES = ("Kriszti", "Miki", "Norbi")
