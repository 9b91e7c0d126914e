"""Um Krone und Kragen (To Court the King): the second game at the table, as pure rules.

Players bribe a royal court with ordinary dice. Each court card costs a dice pattern and,
once owned, grants an ability that adds or changes dice. The court is one data file
(``rules/ukuk/data/um-krone-und-kragen.toml``); this package reads it (``court``), judges costs
(``costs``), checks and enumerates ability uses (``abilities``), reads the action words
(``actions``), folds a game over them (``game``), places the players after the final round
(``placing``) and finds which cards the dice can still reach without luck (``reach``).
"""
