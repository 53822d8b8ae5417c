"""English dates and times for a tournament in Germany: day before month, 24-hour clock.

Django's default English formats are American ("11/23/2026 3:19 p.m."); a player reading the
English pages in the hall compares them with the German clock on the wall.
"""

DATE_FORMAT = "j M Y"  # 23 Nov 2026
TIME_FORMAT = "H:i"  # 15:19
DATETIME_FORMAT = "j M Y, H:i"  # 23 Nov 2026, 15:19
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%d %b %Y"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%d.%m.%Y %H:%M", "%Y-%m-%d"]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
