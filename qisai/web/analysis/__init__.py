"""The analysis board: any finished game or position, variations as a tree,
an engine's evaluation and best line (issue 17 item 4)."""
