"""The rules of King of the Dice: dice, cards, requirements, the game and its score.

Pure Python with no hardware, HTTP or camera: everything else depends on it.
"""
