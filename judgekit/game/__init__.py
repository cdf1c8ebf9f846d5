"""The game itself, the bottom layer every area may import: the cards and their facts
(`cards`, `card_names`), the table and the points of the tournament rules (`scoring`: table
sizes, VP, GW, TP, the finalists) and the round's clock (`clock`: the time limit, the
time-extension cap). Facts only, one place each; it imports no other area of judgekit.
"""
