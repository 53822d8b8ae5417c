"""The results service: the same Kreuzdame deployed on the internet, where many clubs' hall
laptops publish their tournaments (clubs, publishing keys, the receiving end)."""
