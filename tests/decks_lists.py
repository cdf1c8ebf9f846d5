"""Decklists for the decklist tests: legal ones in several export formats, and broken ones."""

TWDA = """Deck Name: Turner's Rush
Created by: Ann

Crypt (12 cards, min=16, max=28, avg=5.5)
-----------------------------------------
8x Nathan Turner        4 PRO ani                 Gangrel:6
4x Theo Bell            7 CEL POT pre dom  baron  Brujah:6

Library (60 cards)
Master (10)
10x Blood Doll

Action (20)
20x Bum's Rush

Combat (30)
30x Immortal Grapple
"""

JOL = "\n".join(["12x Nathan Turner", "", "20x Blood Doll", "40x Bum's Rush"])

LACKEY = "\n".join(["20\tBlood Doll", "40\tBum's Rush", "Crypt:", "12\tNathan Turner"])


def legal(k: int = 0) -> str:
    """A legal constructed list; `k` varies the library so lists differ."""
    return "\n".join(["Crypt (12)", "12x Nathan Turner", "", "Library (60)",
                      f"{20 + k % 5}x Blood Doll", f"{40 - k % 5}x Bum's Rush"])


SHORT_AND_BANNED = "\n".join(["Crypt (10)", "10x Nathan Turner", "Library (58)", "56x Bum's Rush",
                              "2x Dramatic Upheaval"])
GROUPS = "\n".join(["Crypt (12)", "6x Nathan Turner", "6x Anson (G1)", "Library (60)", "60x Bum's Rush"])
UNKNOWN = "\n".join(["Crypt (12)", "12x Nathan Turner", "Library (60)", "57x Bum's Rush",
                     "3x Zzyzx Quorble Machine"])
