"""How the site words things: the sentences behind the engine's codes, the German glossary,
form labels, profile notes."""
