"""Every word the page shows, in English and German, in one place.

German follows the box's own rulebook: Bürger, Ort, Königreich(-Stapel), Strafkarte,
Drache, Würfeln, Nachziehstapel. A penalty card is always the penalty card (Strafkarte),
never also the scoundrel pictured on it. Card names come from the card data
(``card.name[lang]``), never from here.
"""

from __future__ import annotations

from flask import Request

LANGS = ("en", "de")
DEFAULT_LANG = "en"
LANG_COOKIE = "kotd_lang"

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "title": "King of the Dice",
        "nav_table": "Table",
        "nav_scores": "Scores",
        "nav_setup": "Setup",
        "nav_history": "History",
        "live": "live",
        "offline": "reconnecting…",
        "watching": "Watching only: open the QR code link to act",
        "no_game": "No game yet.",
        "start_game": "Start a game",
        "turn_of": "{player}'s turn",
        "roll_n_of": "roll {n} of {max}",
        "roll_n_of_short": "roll {n}/{max}",
        "no_roll_yet": "Throw the dice",
        "turn": "Turn {n}",
        "dice": "Dice",
        "sum": "sum {n}",
        "fix_die": "Correct die {n}",
        "fix_apply": "Correct",
        "cancel": "Cancel",
        "camera": "Camera",
        "camera_ok": "camera on",
        "camera_lost": "camera lost",
        "camera_stalled": "camera stalled",
        "storage_problem": "Not saved: {message}. The game goes on and is saved again as soon "
                           "as the card allows.",
        "storage_note": "Game file: {message}.",
        "camera_simulated": "simulated tray",
        "camera_none": "no camera",
        "picture": "Picture",
        "reread": "Read again",
        "throw_dice": "Throw the dice",
        "odds_none": "Odds appear after a roll.",
        "odds_card": "Slot {slot} {name}: {p} by the end of the turn (keep {keep})",
        "odds_best": "Most points: keep {keep} and roll the rest (expect {points})",
        "odds_stop": "Most points: stop now and claim (expect {points})",
        "claim": "Take this card",
        "claim_no_village": "Take it, leave the village card",
        "claim_no_bonus": "Take it without the bonus card",
        "satisfied": "fits",
        "missing": "{n} more needed",
        "village_head": "{points} pts · {n} cards",
        "village_head_1": "{points} pts · last card",
        "village_none": "no village left",
        "village_match": "+ village",
        "empty_slot": "empty",
        "give_to": "{player} must give the dragon to:",
        "penalty_q": "Nothing fits: {player} takes the top penalty card. Its value:",
        "draw_q": "Which citizen came up for slot {slots}?",
        "row_q": "Lay out the first five citizens (tap them in order, left to right)",
        "undo": "Undo",
        "undo_last": "Undo: {last}",
        "last": "Last:",
        "more": "More",
        "type_action": "Type an action (e.g. roll 4r 4g 4b 1r 2g 6b)",
        "send": "Send",
        "show_odds": "Show odds",
        "qr": "QR code",
        "qr_hint": "Scan to join and act at this table",
        "close": "Close",
        "scores": "Scores",
        "place": "#{n}",
        "total": "points",
        "citizens": "Citizens",
        "villages": "Villages",
        "fairies": "Fairies",
        "penalties": "Penalty cards",
        "dragons": "Dragons",
        "kingdom": "Kingdom",
        "kingdom_empty": "nothing yet",
        "game_over": "Game over",
        "ended_by": "Ended: {why}",
        "winner": "{player} wins!",
        "shared_win": "Shared victory",
        "tie_break": "Tie-break",
        "players": "Players (2–5), in seating order",
        "player_n": "Player {n}",
        "add_player": "+ player",
        "up": "↑",
        "down": "↓",
        "remove": "✕",
        "new_game": "Start new game",
        "new_game_confirm": "Start a new game? The current one stays in the history.",
        "first_row": "First row: open Setup",
        "lay_row": "Lay out the row",
        "clear": "Clear",
        "picker_all": "All",
        "draw_pile": "Draw pile: {n}",
        "penalty_pile": "Penalty pile: {n}",
        "history": "This game",
        "past_games": "Past games",
        "events": "{n} actions",
        "no_history": "Nothing played yet.",
        "open": "Open",
        "current_game": "now",
        "need_token": "Only the table may act: open the page from the QR code.",
        "phase_setup": "Setup",
        "phase_rolling": "Rolling",
        "phase_give": "Give the dragon",
        "phase_draw": "Refill the row",
        "phase_over": "Game over",
        "extra_turn": "extra turn",
        "done": "Done.",
        "refused": "Refused: {error}",
        "wake_lock_off": ("This browser cannot keep the screen on here: "
                          "turn off auto-lock while you play"),
        "problem": "This stored game cannot go on ({why}). Start a new game under Setup.",
        "warning": "Check the dice:",
        "fits_none": "nothing fits yet",
        "fits_none_last": "nothing fits",
        "fits_one": "1 card fits:",
        "fits_n": "{n} cards fit:",
        "jump_slot": "Go to slot {n}",
        "rolls_left_1": "1 roll left",
        "rolls_left_n": "{n} rolls left",
        "no_rolls_left": "no roll left",
        "throw_hint": "Throw the dice into the tray",
        "stop_early": "Stop and take a penalty card",
        "stop_early_q": ("Nothing fits. {player} may still roll, or stop now and take the top "
                         "penalty card. Its value:"),
        "shift_hint": "Slide the cards right; the new one goes into slot {slot}.",
        "shift_picture": "The row: cards slide right, the new card goes in on the left",
        "new_card": "new",
        "search_card": "Find a card",
        "back": "Back",
        "no_match": "No card left matches that.",
        "kind_left": "{n} left",
        "dragon_gift": "given away",
        "dragon_hint": "a dragon is given to another player: minus points for them",
        "sum_over": "sum {sum}, needs ≤ {total}",
        "sum_under": "sum {sum}, needs ≥ {total}",
        "dice_short_1": "1 die to go",
        "dice_short_n": "{n} dice to go",
        "wins_with": "{player} wins with {points} points",
        "share_win": "{players} share the victory with {points} points",
        "tie_fewer": "tied on {points} points: fewer minus points decide",
        "tie_shared": "tied on points and minus points: shared",
        "tie_words": ("{winner} and {other} both have {points} points; {winner} has fewer "
                      "minus points ({a} against {b})."),
        "minus_points": "minus points",
        "and": "and",
        "haba_clash": "dice {dice} would all be from HABA pair {pair}, which has only two dice",
        "held_check": "Please check die {dice} before the roll counts: tap it to correct it.",
        "held_right": "The dice are right",
        "held_waiting": "{player}'s roll is kept: it counts as soon as the question is answered.",
        "stats_title": "Across games",
        "stats_games": "games",
        "stats_wins": "wins",
        "stats_best": "best",
        "export": "Export every game",
        "color_of": "Colour of {player}",
        "live_view_note": ("Live from the camera; each die carries the number the page "
                           "shows it with."),
        "calibrate": "Calibrate the colours",
        "calibrate_hint": ("Put all six dice under the camera, faces up and apart, "
                           "then tap to teach it their colours."),
        "calibrated": "Colours learned from the dice under the camera.",
        "tray_hint": ("The tray: tap its four corners on the picture, in order around it, or "
                      "let the camera find it. Then only dice inside it are read (never the "
                      "dice printed on the citizen cards beside it), and the camera knows the "
                      "angle it looks from (a camera on a desk arm reads better so)."),
        "tray_mark": "Mark the tray",
        "tray_tap": "Tap corner {n} of 4",
        "tray_find": "Find the tray",
        "tray_use": "Use this tray",
        "tray_clear": "Read the whole picture",
        "tray_marked": "Tray marked: only dice inside it are read.",
        "tray_tilt": "The camera looks at it {tilt}° from straight down.",
        "tray_too_tilted": ("The camera looks at it {tilt}° from straight down: dice hide each "
                            "other at that angle. Hang it more steeply over the tray."),
        "tray_cleared": "The whole picture is read again.",
        "player_col": "Player",
        "rematch": "Rematch",
        "rematch_hint": "same players, {player} starts",
        "new_game_short": "New game",
        "players_strip": "Players and points",
        "turn_now": "now playing",
        "vibrate": "Vibrate this phone on the turn of",
        "vibrate_nobody": "nobody",
        "seeing_waiting": "waiting for a throw",
        "seeing_moving": "dice rolling",
        "seeing_settling": "dice settling",
        "seeing_settled": "dice read",
        "seeing_too few dice": ("I see {n} dice; a roll needs {dice}: is one covered or outside "
                                "the picture? If not, tap “Read again”."),
        "seeing_too many dice": ("I see {n} dice; a roll needs {dice}: is something in the tray "
                                 "that looks like a die?"),
        "seeing_no dice": "no dice in the tray",
        "seeing_still": "still",
        "camera_lost_note": "The game is kept; reading resumes when the camera is back.",
        "camera_tilted": ("The camera looks at the dice at an angle: mark the tray in the "
                          "camera picture, and it reads them surer."),
        "check_die": "Please check die {dice}",
        "why_of": "Die {die}: {why}",
        "why_side": "it may be a leaning die's side, not its top",
        "why_die": "it may be no die (a printed die, a finger, a shadow)",
        "why_value": "its pips are hard to count",
        "why_colour": "its colour is hard to tell",
        "why_box": "the box has no such dice together: one is misread",
        "why_kept": "it lay still, but now reads otherwise",
        "why_strip": "it lies on the edge of the set-aside strip",
        "theme": "Theme follows the phone",
        "language": "Language",
        "dice_label": "die {n}: {value} {color}",
        "red": "red",
        "green": "green",
        "blue": "blue",
        "game": "Game",
        "game_kotd": "King of the Dice",
        "game_ukuk": "Um Krone und Kragen (To Court the King)",
        "game_board": "King of the Dice: The Board Game",
        "switch_game_confirm": ("A game is in progress. Switch games? (It stays in the "
                                "history and comes back when you switch back.)"),
        "u_hand": "{player} takes {n} dice and throws them.",
        "u_active": "In play",
        "u_aside": "Set aside",
        "u_die": "die {n}: {value}",
        "u_must_aside": "Set at least one die aside before the next throw.",
        "u_set_aside": "Set aside (tap dice first)",
        "u_set_aside_n": "Set aside {dice}",
        "u_all_aside": "Set all aside",
        "u_enter_throw": "Enter the throw ({n} dice)",
        "u_unused": "{player}'s court, still unused this round",
        "u_pick_first": "Tap the dice for the {card} first",
        "u_use_title": "{card}: {dice} →",
        "u_new_value": "new number of die {n}",
        "u_use_hint": "What do the dice show now?",
        "u_use_apply": "Use",
        "u_throw_hint": "Tap a die until it shows its number.",
        "u_throw_apply": "Enter",
        "u_bid": "This is my bid",
        "u_buys": "The result buys:",
        "u_buys_nothing": "The result buys nothing left at court.",
        "u_buy": "Buy {card}",
        "u_pass": "End the turn without buying",
        "u_reach": "Without more luck",
        "u_now": "As they lie now: {cards}",
        "u_use_1": "1 card",
        "u_use_n": "{n} cards",
        "u_do_it": "Do it",
        "u_reach_none": "No other card can be reached with the court cards left this round.",
        "u_reach_no_cards": "No court cards left to use this round.",
        "u_court": "The court",
        "u_row": "Row {row}",
        "u_left": "{n} of {of} left",
        "u_round": "round {n}",
        "u_throw_n": "throw {n}",
        "u_final": "final round",
        "u_cards": "court cards",
        "u_wins": "{player} holds the King and wins",
        "u_holder": "{player} holds the King now",
        "u_bid_of": "{count} × {number}",
        "u_n_cards": "{n} cards",
        "u_start_dice": "{n} dice at the start of a turn",
        # issue 46: singulars (fmt takes KEY_1, or KEY without _n plus _1, when n is 1),
        # held throws of both games, Um Krone und Kragen in plain words
        "events_1": "1 action",
        "u_n_cards_1": "1 card",
        "u_enter_throw_1": "Enter the throw (1 die)",
        "seeing_too few dice_1": ("I see 1 die; a roll needs {dice}: is one covered or "
                                  "outside the picture? If not, tap “Read again”."),
        "held_check_n": "Please check dice {dice} before the roll counts: tap one to correct it.",
        "u_held": "The camera is not sure of {player}'s throw: check it above.",
        "u_reach_plain": "What your court can still buy",
        "u_reach_none_owned": "You have no court cards yet: what the dice show is what they buy.",
        "penalty_q_row": ("Nothing fits: {player} takes the top penalty card, and the "
                          "rightmost citizen, {card}, leaves the row. The penalty card's "
                          "value:"),
        "roll_n_of_elf": "roll {n} of 4 (the elf's fourth roll)",
        "roll_n_of_short_elf": "roll {n}/4 (elf)",
        "extra_turn_why": "extra turn (apprentice)",
        "bonus_hint": ("The hypnotist's bonus: the card to its right comes too; a dragon taken "
                       "so is given to another player."),
        "u_start_twice": ("A new round: {player} played last, so {player} starts this one and "
                          "plays twice in a row."),
    },
    "de": {
        "title": "Würfelkönig",
        "nav_table": "Tisch",
        "nav_scores": "Punkte",
        "nav_setup": "Aufbau",
        "nav_history": "Verlauf",
        "live": "live",
        "offline": "verbinde neu…",
        "watching": "Nur zuschauen: zum Mitspielen den Link aus dem QR-Code öffnen",
        "no_game": "Noch kein Spiel.",
        "start_game": "Spiel beginnen",
        "turn_of": "{player} ist am Zug",
        "roll_n_of": "Wurf {n} von {max}",
        "roll_n_of_short": "Wurf {n}/{max}",
        "no_roll_yet": "Würfeln!",
        "turn": "Zug {n}",
        "dice": "Würfel",
        "sum": "Summe {n}",
        "fix_die": "Würfel {n} korrigieren",
        "fix_apply": "Korrigieren",
        "cancel": "Abbrechen",
        "camera": "Kamera",
        "camera_ok": "Kamera an",
        "camera_lost": "Kamera weg",
        "camera_stalled": "Kamera hängt",
        "storage_problem": "Nicht gespeichert ({message}). Das Spiel geht weiter und wird "
                           "wieder gespeichert, sobald die Speicherkarte es zulässt.",
        "storage_note": "Spieldatei: {message}.",
        "camera_simulated": "simulierte Schale",
        "camera_none": "keine Kamera",
        "picture": "Bild",
        "reread": "Neu lesen",
        "throw_dice": "Würfeln",
        "odds_none": "Die Chancen erscheinen nach einem Wurf.",
        "odds_card": "Platz {slot} {name}: {p} bis zum Zugende (behalte {keep})",
        "odds_best": "Meiste Punkte: behalte {keep}, würfle den Rest (erwartet {points})",
        "odds_stop": "Meiste Punkte: jetzt aufhören und nehmen (erwartet {points})",
        "claim": "Diese Karte nehmen",
        "claim_no_village": "Nehmen, Ortskarte liegen lassen",
        "claim_no_bonus": "Nehmen, ohne Bonuskarte",
        "satisfied": "passt",
        "missing": "noch {n} fehlen",
        "village_head": "{points} Pkt. · {n} Karten",
        "village_head_1": "{points} Pkt. · letzte Karte",
        "village_none": "kein Ort mehr",
        "village_match": "+ Ort",
        "empty_slot": "leer",
        "give_to": "{player} muss den Drachen verschenken an:",
        "penalty_q": "Nichts erfüllt: {player} nimmt die oberste Strafkarte. Ihr Wert:",
        "draw_q": "Welcher Bürger kam für Platz {slots}?",
        "row_q": "Die ersten fünf Bürger auslegen (der Reihe nach antippen, von links nach rechts)",
        "undo": "Rückgängig",
        "undo_last": "Rückgängig: {last}",
        "last": "Zuletzt:",
        "more": "Mehr",
        "type_action": "Aktion eingeben (z. B. „roll 4r 4g 4b 1r 2g 6b“)",
        "send": "Senden",
        "show_odds": "Chancen zeigen",
        "qr": "QR-Code",
        "qr_hint": "Scannen, um an diesem Tisch mitzuspielen",
        "close": "Schließen",
        "scores": "Punkte",
        "place": "#{n}",
        "total": "Punkte",
        "citizens": "Bürger",
        "villages": "Orte",
        "fairies": "Feen",
        "penalties": "Strafkarten",
        "dragons": "Drachen",
        "kingdom": "Königreich",
        "kingdom_empty": "noch leer",
        "game_over": "Spielende",
        "ended_by": "Ende: {why}",
        "winner": "{player} gewinnt!",
        "shared_win": "Geteilter Sieg",
        "tie_break": "Gleichstand",
        "players": "Spieler (2–5), in Sitzreihenfolge",
        "player_n": "Spieler {n}",
        "add_player": "+ Spieler",
        "up": "↑",
        "down": "↓",
        "remove": "✕",
        "new_game": "Neues Spiel beginnen",
        "new_game_confirm": "Neues Spiel beginnen? Das laufende bleibt im Verlauf.",
        "first_row": "Erste Auslage: zum Aufbau",
        "lay_row": "Auslage legen",
        "clear": "Leeren",
        "picker_all": "Alle",
        "draw_pile": "Nachziehstapel: {n}",
        "penalty_pile": "Strafkarten: {n}",
        "history": "Dieses Spiel",
        "past_games": "Frühere Spiele",
        "events": "{n} Aktionen",
        "no_history": "Noch nichts gespielt.",
        "open": "Öffnen",
        "current_game": "läuft",
        "need_token": "Nur der Tisch darf handeln: Seite über den QR-Code öffnen.",
        "phase_setup": "Aufbau",
        "phase_rolling": "Würfeln",
        "phase_give": "Drachen verschenken",
        "phase_draw": "Auslage auffüllen",
        "phase_over": "Spielende",
        "extra_turn": "Extrazug",
        "done": "Erledigt.",
        "refused": "Abgelehnt: {error}",
        "wake_lock_off": ("Dieser Browser kann den Bildschirm hier nicht anlassen: "
                          "Auto-Sperre beim Spielen ausschalten"),
        "problem": ("Dieses gespeicherte Spiel kann nicht weitergehen ({why}). Unter Aufbau "
                    "ein neues Spiel beginnen."),
        "warning": "Würfel prüfen:",
        "fits_none": "noch passt nichts",
        "fits_none_last": "nichts passt",
        "fits_one": "1 Karte passt:",
        "fits_n": "{n} Karten passen:",
        "jump_slot": "Zu Platz {n}",
        "rolls_left_1": "noch 1 Wurf",
        "rolls_left_n": "noch {n} Würfe",
        "no_rolls_left": "kein Wurf mehr",
        "throw_hint": "Würfel in die Schale werfen",
        "stop_early": "Aufhören und Strafkarte nehmen",
        "stop_early_q": ("Nichts passt. {player} darf noch würfeln oder jetzt aufhören und die "
                         "oberste Strafkarte nehmen. Ihr Wert:"),
        "shift_hint": "Karten nach rechts schieben; die neue kommt auf Platz {slot}.",
        "shift_picture": "Die Auslage: Karten rücken nach rechts, die neue kommt links dazu",
        "new_card": "neu",
        "search_card": "Karte suchen",
        "back": "Zurück",
        "no_match": "Keine übrige Karte passt dazu.",
        "kind_left": "noch {n}",
        "dragon_gift": "wird verschenkt",
        "dragon_hint": "Ein Drache wird an einen anderen Spieler verschenkt: Minuspunkte für ihn",
        "sum_over": "Summe {sum}, nötig ≤ {total}",
        "sum_under": "Summe {sum}, nötig ≥ {total}",
        "dice_short_1": "noch 1 Würfel",
        "dice_short_n": "noch {n} Würfel",
        "wins_with": "{player} gewinnt mit {points} Punkten",
        "share_win": "{players} teilen sich den Sieg mit {points} Punkten",
        "tie_fewer": "bei {points} Punkten gleichauf, weniger Minuspunkte entscheiden",
        "tie_shared": "Punkte und Minuspunkte gleich: geteilter Sieg",
        "tie_words": ("{winner} und {other} haben beide {points} Punkte; {winner} hat weniger "
                      "Minuspunkte ({a} gegen {b})."),
        "minus_points": "Minuspunkte",
        "and": "und",
        "haba_clash": "Würfel {dice} wären alle aus HABA-Paar {pair}, das nur zwei Würfel hat",
        "held_check": ("Bitte Würfel {dice} prüfen, bevor der Wurf zählt: antippen zum "
                       "Korrigieren."),
        "held_right": "Die Würfel stimmen",
        "held_waiting": ("Der Wurf von {player} ist gemerkt: er zählt, sobald die Frage "
                         "beantwortet ist."),
        "stats_title": "Über alle Spiele",
        "stats_games": "Spiele",
        "stats_wins": "Siege",
        "stats_best": "beste",
        "export": "Alle Spiele exportieren",
        "color_of": "Farbe von {player}",
        "live_view_note": ("Live von der Kamera; jeder Würfel trägt die Nummer, die die "
                           "Seite ihm gibt."),
        "calibrate": "Farben einlernen",
        "calibrate_hint": ("Alle sechs Würfel mit Abstand unter die Kamera legen, "
                           "dann tippen, damit sie ihre Farben lernt."),
        "calibrated": "Farben von den Würfeln unter der Kamera gelernt.",
        "tray_hint": ("Die Schale: ihre vier Ecken im Bild der Reihe nach antippen oder von "
                      "der Kamera suchen lassen. Dann werden nur Würfel darin gelesen (nie die "
                      "auf die Bürgerkarten daneben gedruckten), und die Kamera kennt ihren "
                      "Blickwinkel (an einem Schreibtischarm liest sie so besser)."),
        "tray_mark": "Schale markieren",
        "tray_tap": "Ecke {n} von 4 antippen",
        "tray_find": "Schale suchen",
        "tray_use": "Diese Schale nehmen",
        "tray_clear": "Ganzes Bild lesen",
        "tray_marked": "Schale markiert: nur Würfel darin werden gelesen.",
        "tray_tilt": "Die Kamera blickt {tilt}° schräg auf die Schale.",
        "tray_too_tilted": ("Die Kamera blickt {tilt}° schräg auf die Schale: so verdecken "
                            "sich die Würfel. Bitte die Kamera steiler über die Schale "
                            "hängen."),
        "tray_cleared": "Das ganze Bild wird wieder gelesen.",
        "player_col": "Spieler",
        "rematch": "Revanche",
        "rematch_hint": "gleiche Spieler, {player} beginnt",
        "new_game_short": "Neues Spiel",
        "players_strip": "Spieler und Punkte",
        "turn_now": "ist am Zug",
        "vibrate": "Dieses Handy vibriert, wenn am Zug ist:",
        "vibrate_nobody": "niemand",
        "seeing_waiting": "wartet auf einen Wurf",
        "seeing_moving": "Würfel rollen",
        "seeing_settling": "Würfel kommen zur Ruhe",
        "seeing_settled": "Würfel gelesen",
        "seeing_too few dice": ("Ich sehe {n} Würfel; ein Wurf braucht {dice}: liegt einer "
                                "verdeckt oder außerhalb des Bildes? Wenn nicht, „Neu "
                                "lesen“ antippen."),
        "seeing_too many dice": ("Ich sehe {n} Würfel; ein Wurf braucht {dice}: liegt etwas in "
                                 "der Schale, das wie ein Würfel aussieht?"),
        "seeing_no dice": "keine Würfel in der Schale",
        "seeing_still": "ruhig",
        "camera_lost_note": ("Das Spiel bleibt erhalten; es geht weiter, sobald die Kamera zurück "
                             "ist."),
        "camera_tilted": ("Die Kamera sieht die Würfel schräg: Markiert die Schale im Kamerabild, "
                          "dann liest sie sie sicherer."),
        "check_die": "Bitte Würfel {dice} prüfen",
        "why_of": "Würfel {die}: {why}",
        "why_side": "vielleicht die Seite eines schrägen Würfels, nicht seine Oberseite",
        "why_die": "vielleicht kein Würfel (ein gedruckter Würfel, ein Finger, ein Schatten)",
        "why_value": "seine Augen sind schwer zu zählen",
        "why_colour": "seine Farbe ist schwer zu erkennen",
        "why_box": "so liegen keine Würfel der Schachtel zusammen: einer ist falsch gelesen",
        "why_kept": "er lag still, wird aber jetzt anders gelesen",
        "why_strip": "er liegt am Rand des Streifens für herausgelegte Würfel",
        "theme": "Farben wie am Handy eingestellt",
        "language": "Sprache",
        "dice_label": "Würfel {n}: {value} {color}",
        "red": "rot",
        "green": "grün",
        "blue": "blau",
        "game": "Spiel",
        "game_kotd": "Würfelkönig",
        "game_ukuk": "Um Krone und Kragen",
        "game_board": "Würfelkönig: Das Brettspiel",
        "switch_game_confirm": ("Ein Spiel läuft. Spiel wechseln? (Es bleibt im Verlauf "
                                "und kommt zurück, wenn ihr zurückwechselt.)"),
        "u_hand": "{player} nimmt {n} Würfel und würfelt.",
        "u_active": "Im Spiel",
        "u_aside": "Herausgelegt",
        "u_die": "Würfel {n}: {value}",
        "u_must_aside": "Vor dem nächsten Wurf mindestens einen Würfel herauslegen.",
        "u_set_aside": "Herauslegen (erst Würfel antippen)",
        "u_set_aside_n": "{dice} herauslegen",
        "u_all_aside": "Alle herauslegen",
        "u_enter_throw": "Wurf eingeben ({n} Würfel)",
        "u_unused": "Hofstaat von {player}, in dieser Runde noch frei",
        "u_pick_first": "Erst die Würfel für {card} antippen",
        "u_use_title": "{card}: {dice} →",
        "u_new_value": "neue Zahl von Würfel {n}",
        "u_use_hint": "Was zeigen die Würfel jetzt?",
        "u_use_apply": "Einsetzen",
        "u_throw_hint": "Einen Würfel antippen, bis er seine Zahl zeigt.",
        "u_throw_apply": "Eintragen",
        "u_bid": "Das ist mein Gebot",
        "u_buys": "Das Ergebnis kauft:",
        "u_buys_nothing": "Das Ergebnis kauft nichts, was am Hof noch frei ist.",
        "u_buy": "{card} nehmen",
        "u_pass": "Zug ohne Kauf beenden",
        "u_reach": "Ohne weiteres Glück",
        "u_now": "So wie sie liegen: {cards}",
        "u_use_1": "1 Karte",
        "u_use_n": "{n} Karten",
        "u_do_it": "Ausführen",
        "u_reach_none": "Mit dem restlichen Hofstaat ist keine weitere Karte erreichbar.",
        "u_reach_no_cards": "In dieser Runde ist kein Hofstaat mehr frei.",
        "u_court": "Der Hofstaat",
        "u_row": "Reihe {row}",
        "u_left": "{n} von {of} frei",
        "u_round": "Runde {n}",
        "u_throw_n": "Wurf {n}",
        "u_final": "Finalrunde",
        "u_cards": "Hofleute",
        "u_wins": "{player} hat den König und gewinnt",
        "u_holder": "{player} hat jetzt den König",
        "u_bid_of": "{count} × {number}",
        "u_n_cards": "{n} Karten",
        "u_start_dice": "{n} Würfel zu Beginn des Zuges",
        # issue 46: Einzahl, gehaltene Würfe beider Spiele, Um Krone und Kragen in Worten
        "events_1": "1 Aktion",
        "u_n_cards_1": "1 Karte",
        "u_enter_throw_1": "Wurf eingeben (1 Würfel)",
        "seeing_too few dice_1": ("Ich sehe 1 Würfel; ein Wurf braucht {dice}: liegt einer "
                                  "verdeckt oder außerhalb des Bildes? Wenn nicht, „Neu "
                                  "lesen“ antippen."),
        "held_check_n": ("Bitte die Würfel {dice} prüfen, bevor der Wurf zählt: einen antippen "
                         "zum Korrigieren."),
        "u_held": "Die Kamera ist sich beim Wurf von {player} nicht sicher: bitte oben prüfen.",
        "u_reach_plain": "Was dein Hofstaat noch kaufen kann",
        "u_reach_none_owned": "Du hast noch keinen Hofstaat: was die Würfel zeigen, kaufen sie.",
        "penalty_q_row": ("Nichts erfüllt: {player} nimmt die oberste Strafkarte, und der "
                          "Bürger ganz rechts, {card}, verlässt die Auslage. Wert der "
                          "Strafkarte:"),
        "roll_n_of_elf": "Wurf {n} von 4 (der vierte Wurf der Elfe)",
        "roll_n_of_short_elf": "Wurf {n}/4 (Elfe)",
        "extra_turn_why": "Extrazug (Zauberlehrling)",
        "bonus_hint": ("Bonus des Hypnotiseurs: die Karte rechts daneben kommt mit; ein so "
                       "genommener Drache wird an einen anderen Spieler verschenkt."),
        "u_start_twice": ("Neue Runde: {player} war zuletzt dran, beginnt deshalb diese Runde "
                          "und spielt zweimal hintereinander."),
    },
}

assert all(STRINGS["en"].keys() == STRINGS[lang].keys() for lang in LANGS)


def pick_lang(request: Request) -> str:
    """``?lang=`` first, then the remembered choice (cookie), then Accept-Language."""
    asked = (request.args.get("lang") or "").lower()
    if asked in LANGS:
        return asked
    remembered = (request.cookies.get(LANG_COOKIE) or "").lower()
    if remembered in LANGS:
        return remembered
    return request.accept_languages.best_match(LANGS) or DEFAULT_LANG


def api_lang(request: Request) -> str:
    """The API's language: ``?lang=`` or Accept-Language, English by default."""
    asked = (request.args.get("lang") or "").lower()
    if asked in LANGS:
        return asked
    return request.accept_languages.best_match(LANGS) or DEFAULT_LANG


# The referee's refusals in the page's language: an error's stable code (rules.errors)
# and its params fill these templates. Every code the page can meet has one
# (tests/test_i18n_errors.py); the few said only on the command line are in English.
ERRORS: dict[str, dict[str, str]] = {
    "de": {
        "rule.no_game": "Noch kein Spiel: zuerst ein Spiel beginnen (Aufbau).",
        "rule.game_stopped": ("Spiel {game} kann nicht weitergehen ({problem}); bitte ein "
                              "neues Spiel beginnen."),
        "rule.player_count": "Würfelkönig ist für {low}–{high} Spieler, nicht {count}.",
        "rule.player_names": "Jeder Spieler braucht einen anderen Namen.",
        "rule.no_player": "Es gibt keinen Spieler {name} (Spieler: {players}).",
        "rule.phase_setup": ("Jetzt nicht möglich: zuerst die ersten fünf Bürger "
                             "auslegen."),
        "rule.phase_rolling": "Jetzt nicht möglich: {player} würfelt gerade.",
        "rule.phase_give": ("Jetzt nicht möglich: {player} muss zuerst den Drachen "
                            "verschenken."),
        "rule.phase_draw": "Jetzt nicht möglich: zuerst die Auslage auffüllen.",
        "rule.phase_over": "Jetzt nicht möglich: das Spiel ist vorbei.",
        "rule.twice": "{card} steht doppelt da; die Schachtel hat jeden Bürger nur einmal.",
        "rule.not_in_pile": "{card} ist schon aus dem Stapel; sie kann nicht noch einmal kommen.",
        "rule.row_size": "Die Auslage hat {size} Bürger, nicht {count}.",
        "rule.no_rolls_left": ("Kein Wurf mehr: höchstens {most} Würfe pro Zug; einen Bürger "
                               "nehmen oder eine Strafkarte."),
        "rule.no_rolls_left_elf": ("Kein Wurf mehr: höchstens {most} Würfe pro Zug (4 mit "
                                   "einer Elfe oben); einen Bürger nehmen oder eine "
                                   "Strafkarte."),
        "rule.dice_count": "Ein Wurf hat {dice} Würfel, nicht {count}.",
        "rule.no_roll_to_fix": "Es gibt noch keinen Wurf zum Korrigieren.",
        "rule.fix_twice": "Ein Würfel wird zweimal korrigiert.",
        "rule.no_die": "Es gibt keinen Würfel {position}; die Würfel sind 1–{dice}.",
        "rule.claim_before_roll": "Zuerst würfeln: ein Bürger wird mit einem Wurf genommen.",
        "rule.no_citizen": "Auf Platz {slot} liegt kein Bürger; die Plätze sind 1–{slots}.",
        "rule.not_satisfied": "Der Wurf {roll} erfüllt die Karte {card_de} ({rule_de}) nicht.",
        "rule.keep_dragon": "Ein Drache wird an einen anderen Spieler verschenkt, nicht behalten.",
        "rule.penalty_before_roll": "Zuerst würfeln: eine Strafkarte gibt es erst nach einem Wurf.",
        "rule.penalty_satisfied": ("Eine Strafkarte nur, wenn kein Bürger erfüllt ist; dieser "
                                   "Wurf erfüllt Platz {slots}."),
        "rule.no_penalty_card": "Keine Strafkarte mit {points} mehr da (noch: {left}).",
        "rule.nothing_to_undo": "Nichts rückgängig zu machen: das Spiel hat gerade begonnen.",
        "rule.players_in_game": "Ein neues Spiel beginnt mit den Spielern, nicht mitten im Spiel.",
        "rule.no_held_roll": "Es wartet kein Wurf auf eine Prüfung.",
        "action.empty": "Leere Aktion.",
        "action.unknown": "Unbekannte Aktion „{verb}“ (bekannt: „{known}“).",
        "action.words": "„{verb}“: falsche Anzahl Wörter; so: „{usage}“",
        "card.unknown": "Unbekannte Karte {id}.",
        "card.unknown_close": "Unbekannte Karte {id}; gemeint: {close}?",
        "usage.no_action": "Keine Aktion geschickt.",
        "usage.long_action": "Eine Aktion hat höchstens {most} Zeichen.",
        "usage.lines": "Eine Aktion nach der anderen.",
        "action.arrows": "Höchstens ein Pfeil; so: „{usage}“",
        "action.claim_option": "Nehmen: unbekannte Angabe „{options}“; so: „{usage}“",
        "action.die": "„{verb}“: „{word}“ ist kein Würfel; ein Würfel ist eine Zahl 1–6.",
        "action.name": "Dieser Name geht nicht: {why}",
        "action.number": "{what} muss eine ganze Zahl sein, nicht „{word}“; so: „{usage}“",
        "card.not_citizen": "{id} ist keine Bürgerkarte.",
        "card.no_requirement": "{id} ist keine Bürgerkarte und hat keine Bedingung.",
        "card.unknown_court_card": "Unbekannte Hofkarte {card}{hint}",
        "roll.colour": ("Würfel {position} ({die}): Um Krone und Kragen wird mit normalen "
                        "Würfeln gespielt; nur die Zahl schreiben."),
        "roll.count": "Ein Wurf hat {count} Würfel, nicht {got} ({text}).",
        "roll.die_color": "{token}: die Farbe ist r, g oder b.",
        "roll.die_start": "{token} muss mit einer Augenzahl 1–6 beginnen.",
        "roll.die_value": "{token}: die Augenzahl ist 1–6.",
        "roll.empty": "Ein Wurf braucht mindestens einen Würfel.",
        "roll.empty_die": "Ein leerer Würfel.",
        "rule.not_a_move": "„{action}“ ist kein Spielzug.",
        "rule.starts_with_players": "Ein Spiel beginnt mit den Spielern, nicht mit {action}.",
        "rule.unknown_action": "Würfelkönig kennt die Aktion {action} nicht.",
        "usage.bad_id": ("Die Kennung („id“) hat 1–{most} Buchstaben, Ziffern oder -_.: "
                         "(dieselbe Kennung für eine wiederholte Aktion)."),
        "usage.body": "So schicken: {{\"action\": \"claim 2\"}}",
        "usage.colors": ("So schicken: {{\"colors\": {{\"Ann\": \"#e53935\"}}}} (bis zu 12 "
                         "Spieler, Farben als #rrggbb)."),
        "usage.fix_held": "Eine Korrektur ist „PLATZ WÜRFEL“, z. B. „3 5b“.",
        "usage.held": "So schicken: {{\"confirm\": true}} oder {{\"fix\": \"3 5b\"}}",
        "usage.no_calibration": "Diese Kamera lässt sich nicht von der Seite aus einstellen.",
        "usage.calibration_failed": ("Die Farben ließen sich nicht anlernen: alle Würfel "
                                     "getrennt und mit der Zahl nach oben unter die Kamera "
                                     "legen."),
        "usage.no_picture": "Noch kein Kamerabild: die Würfel unter die Kamera legen.",
        "usage.tray_body": ("Die Ecken der Schale so schicken: {{\"corners\": [[x, y], ...]}}, "
                            "als Anteile des Bildes."),
        "start.tray_save": "Die Schale lässt sich nicht speichern ({path}): {why}",
        # the tray marked at calibration (vision/tray.py)
        "tray.corners": ("Eine Schale hat vier Ecken, nicht {count}: ihre vier Ecken der "
                         "Reihe nach antippen."),
        "tray.points": "Eine Ecke sind zwei Zahlen, x und y in Bildpunkten.",
        "tray.outside": ("Die Ecke ({x:.0f}, {y:.0f}) liegt außerhalb des Bildes "
                         "({width} × {height})."),
        "tray.crossing": ("Die Seiten der Schale kreuzen sich: die Ecken der Reihe nach "
                          "rundherum angeben, nicht über Kreuz."),
        "tray.concave": ("Diese vier Ecken umranden keine Schale (eine liegt innerhalb der "
                         "anderen oder mit zweien auf einer Linie)."),
        "tray.small": ("Die markierte Schale ist zu klein: ihre Ecken sind dort, wo der "
                       "Boden der Schale an die Wände stößt."),
        "tray.syntax": "{text!r}: die Ecken als x1,y1,x2,y2,x3,y3,x4,y4 in Bildpunkten angeben.",
        "tray.file": "Die Datei der Schale ist beschädigt: die Schale neu markieren.",
        "tray.not_found": ("Keine Schale im Bild gefunden: ihre vier Ecken im Kamerabild "
                           "antippen."),
        "usage.id_reused": "Die Aktionskennung {id} gehört schon zu „{action}“.",
        "usage.unknown_game": "Unbekanntes Spiel {game} (bekannt: {known}).",
        # Um Krone und Kragen (the rulebook's words: Würfel herauslegen, aktive Würfel,
        # Hofnarr ..., Finalrunde, Gebot). Card names are the court's German ones; "die Karte
        # {card}" needs no der/die/das. A text that differs by language comes as *_de.
        "rule.ukuk_player_count": ("Um Krone und Kragen ist für {low}–{high} Spieler, nicht "
                                   "{count}."),
        "rule.ukuk_unknown_action": "Um Krone und Kragen kennt die Aktion {action} nicht.",
        "rule.game_over": "Geht nicht mehr: das Spiel ist vorbei.",
        "rule.not_thrown": "Noch nicht: {player} hat noch nicht gewürfelt.",
        "rule.dice_still_active": ("Noch nicht: zuerst alle Würfel herauslegen (noch aktiv: "
                                   "{active})."),
        "rule.final_no_pass": ("In der Finalrunde ist das Ergebnis dein Gebot: „Das ist mein "
                               "Gebot“ tippen („bid“)."),
        "rule.final_no_buy": ("In der Finalrunde wird keine Karte gekauft: das Ergebnis ist dein "
                              "Gebot („bid“)."),
        "rule.bid_not_final": ("Gebote gibt es erst in der Finalrunde; jetzt eine Karte kaufen "
                               "oder den Zug ohne Kauf beenden."),
        "rule.throw_count": "{player} würfelt mit {expected} Würfeln ({parts}), nicht mit {count}.",
        "rule.throw_count_brought": ("{player} würfelt mit {expected} Würfeln ({parts} + "
                                     "{brought} dazugekommen), nicht mit {count}."),
        "rule.all_aside": "Alle Würfel sind herausgelegt: es ist keiner mehr zum Würfeln übrig.",
        "rule.aside_first": ("Nach jedem Wurf muss mindestens ein Würfel herausgelegt werden, "
                             "bevor du wieder würfelst."),
        "rule.throw_again_count": ("{player} würfelt die {expected} aktiven Würfel noch mal, "
                                   "nicht {count}."),
        "rule.aside_no_such_die": ("Keine {value} zum Herauslegen: kein aktiver Würfel zeigt "
                                   "sie (aktive Würfel: {active})."),
        "rule.aside_no_active_dice": ("Keine {value} zum Herauslegen: es liegt kein aktiver "
                                      "Würfel mehr da."),
        "rule.not_owned": "{player} hat keine Karte {card} zum Einsetzen.",
        "rule.used_this_round": ("Die Karte {card} wurde in dieser Runde schon eingesetzt; jede "
                                 "Karte nur einmal pro Runde."),
        "rule.die_value": "Ein Würfel zeigt 1 bis 6, nicht {value}.",
        "rule.no_die_here": ("Es gibt keinen Würfel {position}; die Würfel sind 1–{dice} (erst "
                             "die aktiven, dann die herausgelegten)."),
        "rule.plain_dice": ("Um Krone und Kragen wird mit normalen Würfeln gespielt: {die} hat "
                            "eine Farbe; nur die Zahl schreiben."),
        "rule.comes_with": ("Die Karte {card} kann man nicht kaufen: sie kommt mit der ersten "
                            "Karte {first}."),
        "rule.already_owned": "{player} hat die Karte {card} schon; jede Karte nur einmal.",
        "rule.none_left": "Am Hof ist keine Karte {card} mehr frei.",
        "rule.needs_card": ("Für die Karte {card} brauchst du selbst die Karte {needed}; die "
                            "geht dafür zurück an den Hof."),
        "rule.cost_not_met": ("Das Würfelergebnis {result} reicht nicht für die Karte {card} "
                              "({cost_de})."),
        "rule.use_no_such_die": ("Kein aktiver Würfel zeigt eine {value} (aktive Würfel: "
                                 "{active})."),
        "rule.use_no_active_dice": ("Kein aktiver Würfel zeigt eine {value}: es liegt kein "
                                    "aktiver Würfel mehr da."),
        "rule.use_say_after": ("Sag, was die Würfel danach zeigen, z. B. „use hofnarr "
                               "3 -> 5“."),
        "rule.use_changes_nothing": "So ändert die Karte {card} nichts an den Würfeln.",
        "rule.start_dice_not_used": ("Die Karte {card} setzt man nicht im Zug ein: sie gibt zu "
                                     "Beginn jedes Zuges {count} Würfel mehr."),
        "rule.reroll_which": "Sag, welche aktiven Würfel du mit der Karte {card} noch mal wirfst.",
        "rule.reroll_one": ("Mit der Karte {card} wirfst du genau einen aktiven Würfel noch mal, "
                            "nicht {count}."),
        "rule.reroll_count": ("Mit der Karte {card} wirfst du genau {n} aktive Würfel noch mal, "
                              "nicht {count}."),
        "rule.reroll_values": ("{n} noch mal geworfene Würfel brauchen {n} neue Zahlen, nicht "
                               "{count}."),
        "rule.raise_which": "Sag, welche aktiven Würfel du mit der Karte {card} erhöhst.",
        "rule.raise_one": ("Mit der Karte {card} erhöhst du genau einen aktiven Würfel, nicht "
                           "{count}."),
        "rule.raise_values": "{n} erhöhte Würfel brauchen {n} neue Zahlen, nicht {count}.",
        "rule.raise_over_six": ("Die Karte {card} kann eine {value} nicht erhöhen: {value} + {by} "
                                "ist mehr als 6."),
        "rule.raise_exactly": ("Die Karte {card} zählt zu jedem Würfel genau {by} dazu: "
                               "{before} -> {after}."),
        "rule.raise_to_over_six": ("Die Karte {card} kann eine {value} nicht auf {to} erhöhen: "
                                   "kein Würfel zeigt mehr als 6."),
        "rule.raise_no_room": ("Die Karte {card} kann eine {value} nicht erhöhen: das wäre mehr "
                               "als 6."),
        "rule.raise_by": ("Die Karte {card} zählt {by_de} zu einem Würfel dazu, also wird aus "
                          "der {value} keine {to}."),
        "rule.share_count": ("Mit der Karte {card} verschiebst du Augen zwischen genau {n} "
                             "aktiven Würfeln."),
        "rule.share_sum": ("Mit der Karte {card} bleibt die Summe gleich: {before} ergibt "
                           "{sum_before}, {after} aber {sum_after}."),
        "rule.turn_one": "Die Karte {card} dreht genau einen aktiven Würfel.",
        "rule.copy_none_aside": ("Die Karte {card} dreht einen Würfel auf die Zahl eines "
                                 "herausgelegten Würfels, aber noch ist keiner herausgelegt."),
        "rule.copy_aside_value": ("Die Karte {card} dreht einen Würfel auf die Zahl eines "
                                  "herausgelegten Würfels ({aside}), nicht auf {to}."),
        "rule.add_takes_none": ("Die Karte {card} bringt einen neuen Würfel ins Spiel; sie nimmt "
                                "keinen Würfel weg."),
        "rule.add_one": "Die Karte {card} bringt genau einen Würfel ins Spiel.",
        "rule.add_value": "Der neue Würfel der Karte {card} zeigt {value}, nicht {to}.",
        "rule.crown_no_use": "Die Karte {card} kann man nicht einsetzen: sie hat keine Fähigkeit.",
    },
}

# King of the Dice: The Board Game's refusals, kept beside its rules.
# King of the Dice: The Board Game's refusals (English is each error's own template)
BOARD_ERRORS_DE: dict[str, str] = {
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
ERRORS["de"].update(BOARD_ERRORS_DE)


def say_error(code: str, params: dict[str, object], english: str, lang: str) -> str:
    """An error's message in ``lang``: its code's template filled with its params, or the
    English message when the code has no translation (never fails)."""
    template = ERRORS.get(lang, {}).get(code)
    if template is None:
        return english
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return english


# ---- issue 47: names and text that cannot be stored (kept apart to merge cleanly) ------------
ERRORS["de"].update({
    "action.look_alike": ("Die Namen {first} und {second} sehen gleich aus: bitte "
                          "unterscheiden (ein Anfangsbuchstabe, ein Spitzname)."),
    "action.name_space": ("Der Name {name} enthält ein Leerzeichen ({char}): ein Name ist ein "
                          "Wort (Ann-Marie); Spieler mit normalen Leerzeichen trennen."),
    "usage.not_a_file": ("{path}: keine Datei ({kind}); eine Datei angeben oder „-“ für die "
                         "Standardeingabe."),
    "usage.not_unicode": ("Die Anfrage enthält ein halbes Zeichen (ein einzelnes Surrogat): "
                          "bitte den Text so schicken, wie er getippt wurde."),
})
