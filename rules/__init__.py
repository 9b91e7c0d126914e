"""The games' rules and the table that plays them: dice, errors, actions, the game-pack
protocol and the list of games, records and replay, the event store, the table.

Each game is a pack in a package of its own (King of the Dice in ``rules.kotd``, Um Krone
und Kragen in ``rules.ukuk``). Pure Python with no hardware, HTTP or camera: everything
else depends on it.
"""
