"""The Spielliste of one table in one round: its rows, its workflow and how it is read.

``verbs`` holds every write (each in its own transaction, each leaving a history record);
``reads`` what the pages show; ``paper`` the one parser of paper lists and sheet files.
"""
