"""German dates and times as one says them: "am 15. Januar 2027 um 20:00 Uhr".

Django's German DATETIME_FORMAT ("15. Januar 2027 20:00") reads oddly in a sentence such as
"Die Anmeldung schließt am …"; everything else is Django's German.
"""

DATETIME_FORMAT = r"j. F Y \u\m H:i \U\h\r"  # 15. Januar 2027 um 20:00 Uhr
