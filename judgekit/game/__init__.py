"""The game itself, the bottom layer every area may import: the cards and their facts
(`cards`, `card_names`), the table and the points of the tournament rules (`scoring`: table
sizes, VP, GW, TP, the finalists), a game's outcome turned into each seat's VP (`outcome`)
and the round's clock (`clock`: the time limit, the time-extension cap). One place each;
pure; it imports no other area of judgekit.
"""
