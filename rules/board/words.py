"""The board game's refusals in German, for the page (:mod:`web.i18n` merges them into its
table of error templates; English is each error's own template)."""

from __future__ import annotations

ERRORS_DE: dict[str, str] = {
    "action.board_deck": "Der Stapel ist 1–5, nicht {n}; so geht es: {usage}",
    "action.board_gem": "Ein Edelstein ist white (weiß) oder gold, nicht {word!r}.",
    "action.board_sheet": "Burgen und Felder sind 0–30.",
    "action.board_tiles": "Burgplättchen: 0–28, nicht {n}.",
    "card.unknown_board_card": "Keine Karte {id!r} (bekannt: {known}).",
    "rule.board_card_in_play": "Die Karte {card} ist schon im Spiel.",
    "rule.board_card_known": "Eine Karte {id} gibt es schon; bitte eine andere Kennung.",
    "rule.board_colours": "Die Würfel des Brettspiels haben Farben: 4r, 4g, 4b schreiben.",
    "rule.board_discard_when": "Joker werden nach dem Würfeln und vor dem Nehmen abgeworfen.",
    "rule.board_fix": "Korrigieren: einen Würfel 1–{n} mit seiner Farbe nennen.",
    "rule.board_game_running": "Ein Spiel läuft; ein neues auf der Startseite beginnen.",
    "rule.board_joker_die": "Ein konkreter Joker bringt seinen eigenen Würfel, {die}.",
    "rule.board_jokers_differ": ("Zwei konkrete Joker müssen denselben Würfel zeigen ({a} und "
                                 "{b} sind verschieden)."),
    "rule.board_jokers_used": "Joker sind abgeworfen: kein Wurf mehr.",
    "rule.board_must_take": ("Der Wurf erfüllt Stapel {decks}: eine Karte, die er erfüllt, muss "
                             "genommen werden."),
    "rule.board_name_die": "Zwei Superjoker: den Würfel nennen, den sie bringen (z. B. 6r).",
    "rule.board_no_card": "Die Karte von Stapel {deck} ist nicht eingegeben (top {deck} KARTE).",
    "rule.board_no_fire": "Nur der Drachentrainer vertreibt ein Drachenfeuer.",
    "rule.board_no_player": "Es gibt keinen Spieler {name}.",
    "rule.board_no_replace": "Nur der Halunke ersetzt einen Marker.",
    "rule.board_no_roll": "Es gibt keinen Wurf zum Korrigieren.",
    "rule.board_no_steal": "Nur der Dieb stiehlt.",
    "rule.board_no_super": "{player} hat keinen Superjoker mehr.",
    "rule.board_no_throw": "Zuerst würfeln.",
    "rule.board_no_throws": "Höchstens drei Würfe.",
    "rule.board_not_done": "Zuerst eine Karte nehmen (offen oder verdeckt).",
    "rule.board_not_met": "Die Würfel erfüllen {card} nicht: {condition}",
    "rule.board_not_owned": "{player} hat keine Karte {card}.",
    "rule.board_not_yet": "Zuerst eine Karte nehmen.",
    "rule.board_over": "Das Spiel ist vorbei.",
    "rule.board_players": "Das Brettspiel ist für 2–4 Spieler, nicht {n}.",
    "rule.board_replace_whom": "Einen Marker eines anderen Spielers ersetzen, der einen hat.",
    "rule.board_same_name": "Zwei Spieler haben denselben Namen.",
    "rule.board_sheet_when": "Die Schlusswertung wird eingetragen, wenn das Spiel vorbei ist.",
    "rule.board_steal_card": ("{player} hat keine offene Karte {card} (Superjoker kann man nicht "
                              "stehlen)."),
    "rule.board_steal_gem": "{player} hat keinen Edelstein {what}.",
    "rule.board_steal_self": "Von einem anderen Spieler stehlen.",
    "rule.board_taken": "In diesem Zug ist schon eine Karte genommen.",
    "rule.board_unknown_action": "Das Brettspiel kennt {verb!r} nicht.",
    "rule.board_used_up": "Stapel {deck} ist aufgebraucht.",
    "rule.board_wrong_deck": "{card} gehört zu Stapel {deck}, nicht {to}.",
}
