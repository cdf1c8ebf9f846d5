"""Cards and their official rulings: the catalog (`catalog.py`), their markup
(`markup.py`), the guideline examples and trainer questions that name a card
(`mentions.py`), the card pages (`views.py`), and the reader of krcg's rulings files used by
`judgekit cards update` (`rulings_source.py`)."""
