"""Fill the German catalogue from the table below (`make messages` runs it).

Keeps the translations reviewable in one place; `tests/test_i18n.py` fails when any message
of the catalogue is untranslated or the compiled .mo is stale.
"""

import sys
from pathlib import Path

import polib

PO = Path(__file__).resolve().parent.parent / "tournament/locale/de/LC_MESSAGES/django.po"

DE = {
    "My tournaments": "Meine Turniere",
    "Administration": "Verwaltung",
    "Log out": "Abmelden",
    "Log in": "Anmelden",
    "tournament administration for Doppelkopf": "Turnierverwaltung für Doppelkopf",
    "User name": "Benutzername",
    "Password": "Passwort",
    "Tournaments": "Turniere",
    "Doppelkopf tournaments": "Doppelkopf-Turniere",
    "No public tournaments at the moment.": "Zurzeit gibt es keine öffentlichen Turniere.",
    "Players": "Spieler",
    "Import": "Import",
    "Settings": "Einstellungen",
    "Public page": "Öffentliche Seite",
    "%(active)s active players, %(checked)s checked in.": (
        "%(active)s aktive Spieler, %(checked)s eingecheckt."
    ),
    "Filter": "Filtern",
    "reset": "zurücksetzen",
    "Add player": "Spieler hinzufügen",
    "Register": "Eintragen",
    "Import preview": "Import-Vorschau",
    "File “%(name)s”: %(rows)s valid lines, %(new)s new players, %(register)s to register.": (
        "Datei „%(name)s“: %(rows)s gültige Zeilen, %(new)s neue Spieler, %(register)s anzumelden."
    ),
    "Nothing can be imported until the file is corrected. Please fix these lines and upload "
    "the file again.": (
        "Solange die Datei fehlerhaft ist, wird nichts importiert. Bitte diese Zeilen "
        "korrigieren und die Datei erneut hochladen."
    ),
    "Line %(line)s": "Zeile %(line)s",
    "Line": "Zeile",
    "first name": "Vorname",
    "last name": "Nachname",
    "club": "Verein",
    "DDV member number": "DDV-Mitgliedsnummer",
    "team": "Team",
    "start number": "Startnummer",
    "action": "Aktion",
    "already registered, skipped": "bereits angemeldet, übersprungen",
    "new player": "neuer Spieler",
    "Cancel": "Abbrechen",
    "All players in this file are already registered.": (
        "Alle Spieler dieser Datei sind bereits angemeldet."
    ),
    "Import players": "Spieler importieren",
    "You will see a preview first; nothing is saved before you confirm it.": (
        "Zuerst erscheint eine Vorschau; gespeichert wird erst, wenn Sie sie bestätigen."
    ),
    "Show preview": "Vorschau anzeigen",
    "Edit tournament": "Turnier bearbeiten",
    "New tournament": "Neues Turnier",
    "settings": "Einstellungen",
    "Save": "Speichern",
    "name": "Name",
    "date": "Datum",
    "rule profile": "Regelwerk",
    "status": "Status",
    "public": "öffentlich",
    "yes": "ja",
    "no": "nein",
    "You do not direct any tournament yet.": "Sie leiten noch kein Turnier.",
    "Undo check-in": "Check-in zurücknehmen",
    "present": "anwesend",
    "Check in": "Einchecken",
    "Withdraw": "Zurückziehen",
    "Re-admit": "Wieder zulassen",
    "Participants": "Teilnehmer",
    "No.": "Nr.",
    "disqualified": "disqualifiziert",
    "No players registered yet.": "Noch keine Spieler angemeldet.",
    "The file is empty.": "Die Datei ist leer.",
    "The file is larger than %(limit)s MB.": "Die Datei ist größer als %(limit)s MB.",
    "Old Excel files (.xls) cannot be read. Please save the list as .xlsx or .csv.": (
        "Alte Excel-Dateien (.xls) können nicht gelesen werden. Bitte die Liste als .xlsx "
        "oder .csv speichern."
    ),
    "The file is not a text file (CSV) nor an Excel file (XLSX).": (
        "Die Datei ist weder eine Textdatei (CSV) noch eine Excel-Datei (XLSX)."
    ),
    "The file's characters cannot be read (expected UTF-8 or Windows-1252).": (
        "Die Zeichen der Datei können nicht gelesen werden (erwartet: UTF-8 oder Windows-1252)."
    ),
    "Line %(line)s cannot be read: %(reason)s": (
        "Zeile %(line)s kann nicht gelesen werden: %(reason)s"
    ),
    "The Excel file is damaged or not an XLSX file.": (
        "Die Excel-Datei ist beschädigt oder keine XLSX-Datei."
    ),
    "the last name is missing": "der Nachname fehlt",
    "%(field)s contains control characters": "%(field)s enthält Steuerzeichen",
    "%(field)s is longer than %(max)s characters": "%(field)s ist länger als %(max)s Zeichen",
    "start number “%(value)s” is not a whole number from 1 to %(max)s": (
        "Startnummer „%(value)s“ ist keine ganze Zahl von 1 bis %(max)s"
    ),
    "The file has more than %(max)s lines.": "Die Datei hat mehr als %(max)s Zeilen.",
    "The file contains no players, only the header line.": (
        "Die Datei enthält keine Spieler, nur die Kopfzeile."
    ),
    "the same player as in line %(line)s": "derselbe Spieler wie in Zeile %(line)s",
    "DDV member number as in line %(line)s": "DDV-Mitgliedsnummer wie in Zeile %(line)s",
    "start number %(number)s as in line %(line)s": "Startnummer %(number)s wie in Zeile %(line)s",
    "start number %(number)s is already taken in this tournament": (
        "Startnummer %(number)s ist in diesem Turnier bereits vergeben"
    ),
    "Line %(line)s: %(reason)s": "Zeile %(line)s: %(reason)s",
    "Start number %(number)s is already taken.": "Startnummer %(number)s ist bereits vergeben.",
    "Unknown status.": "Unbekannter Status.",
    "Only active players can be checked in.": "Nur aktive Spieler können einchecken.",
    "name or number": "Name oder Nummer",
    "all": "alle",
    "Control characters are not allowed.": "Steuerzeichen sind nicht erlaubt.",
    "Unknown rule profile “%(key)s”.": "Unbekanntes Regelwerk „%(key)s“.",
    "Unknown parameter “%(name)s”.": "Unbekannter Parameter „%(name)s“.",
    "Impossible value for “%(name)s”: %(value)s.": "Unmöglicher Wert für „%(name)s“: %(value)s.",
    "Choose the profile the custom one starts from.": (
        "Wählen Sie das Regelwerk, von dem das eigene abgeleitet wird."
    ),
    "Leave empty for the next free number.": "Leer lassen für die nächste freie Nummer.",
    "player list (CSV or XLSX)": "Spielerliste (CSV oder XLSX)",
    "violation in an already decided game": "Verstoß in einem bereits entschiedenen Spiel",
    "unsportsmanlike: warning": "unsportlich: Verwarnung",
    "unsportsmanlike: point deduction": "unsportlich: Punktabzug",
    "unsportsmanlike: disqualification": "unsportlich: Disqualifikation",
    "game": "Spiel",
    "offender": "Verursacher",
    "category": "Kategorie",
    "referee": "Schiedsrichter",
    "signed at": "unterschrieben am",
    "reason": "Begründung",
    "penalty": "Strafe",
    "penalties": "Strafen",
    "player": "Spieler",
    "players": "Spieler",
    "planned": "geplant",
    "drawn": "ausgelost",
    "released": "freigegeben",
    "closed": "abgeschlossen",
    "round": "Runde",
    "draw seed": "Auslosungs-Seed",
    "rounds": "Runden",
    "Round %(number)s": "Runde %(number)s",
    "table": "Tisch",
    "tables": "Tische",
    "Table %(number)s": "Tisch %(number)s",
    "position": "Position",
    "seat": "Sitzplatz",
    "seats": "Sitzplätze",
    "The entry belongs to another tournament.": "Die Anmeldung gehört zu einem anderen Turnier.",
    "The table has no such position.": "Diese Position gibt es an dem Tisch nicht.",
    "normal game": "Normalspiel",
    "Pflichtsolo": "Pflichtsolo",
    "vorgeführtes Pflichtsolo": "vorgeführtes Pflichtsolo",
    "Lustsolo": "Lustsolo",
    "stille Hochzeit": "stille Hochzeit",
    "kind": "Art",
    "soloist": "Solist",
    "games": "Spiele",
    "BSV Hessen 2010 (40 cards)": "BSV Hessen 2010 (40 Karten)",
    "Eppstein 2001 (plus points)": "Eppstein 2001 (Pluspunkte)",
    "Custom (derived from another profile)": "Eigenes (von einem anderen abgeleitet)",
    "running": "läuft",
    "finished": "beendet",
    "short name (URL)": "Kurzname (URL)",
    "venue": "Ort",
    "custom profile based on": "eigenes Regelwerk auf Basis von",
    "changed parameters": "geänderte Parameter",
    "planned rounds": "geplante Runden",
    "directors": "Turnierleitung",
    "referees": "Schiedsrichter",
    "tournament": "Turnier",
    "tournaments": "Turniere",
    "teams": "Teams",
    "active": "aktiv",
    "withdrawn": "zurückgezogen",
    "checked in": "eingecheckt",
    "checked in at": "eingecheckt um",
    "entry": "Anmeldung",
    "entries": "Anmeldungen",
    "German": "Deutsch",
    "English": "Englisch",
    "%(name)s registered with start number %(number)s.": (
        "%(name)s mit Startnummer %(number)s eingetragen."
    ),
    "%(name)s withdrawn.": "%(name)s zurückgezogen.",
    "%(name)s re-admitted.": "%(name)s wieder zugelassen.",
    "The preview has expired. Please upload the file again.": (
        "Die Vorschau ist abgelaufen. Bitte die Datei erneut hochladen."
    ),
    "Nothing was imported. %(reason)s": "Es wurde nichts importiert. %(reason)s",
    "%(count)s players registered.": "%(count)s Spieler angemeldet.",
    "Tournament “%(name)s” created.": "Turnier „%(name)s“ angelegt.",
    "Changes saved.": "Änderungen gespeichert.",
    "Calculate": "Berechnen",
    "Re wins": "Re gewinnt",
    "Kontra wins": "Kontra gewinnt",
    "Neither party wins": "Keine Partei gewinnt",
    "game value %(value)s": "Spielwert %(value)s",
    "Pos.": "Pos.",
    "sits out": "sitzt aus",
    "Please complete the facts of the game.": "Bitte die Angaben zum Spiel vervollständigen.",
    "none": "keine",
    "keine 90": "keine 90",
    "keine 60": "keine 60",
    "keine 30": "keine 30",
    "schwarz": "schwarz",
    "players at the table": "Spieler am Tisch",
    "dealer (sits out at a 5-table)": "Geber (sitzt am Fünfer-Tisch aus)",
    "solo": "Solo",
    "Re (positions; the soloist in a solo)": "Re (Positionen; beim Solo der Solist)",
    "Re took no trick": "Re ohne Stich",
    "Kontra took no trick": "Kontra ohne Stich",
    "“Re” announced": "„Re“ angesagt",
    "“Kontra” announced": "„Kontra“ angesagt",
    # Command line
    "Unknown rule profile “%(key)s”; known: %(known)s.": (
        "Unbekanntes Regelwerk „%(key)s“; bekannt sind: %(known)s."
    ),
    "Cannot read %(path)s: %(reason)s": "%(path)s kann nicht gelesen werden: %(reason)s",
    "The facts are not valid JSON: %(reason)s": "Die Angaben sind kein gültiges JSON: %(reason)s",
    # Spielliste files
    "Line %(line)s, column “%(column)s”: “%(value)s” is not a whole number.": (
        "Zeile %(line)s, Spalte „%(column)s“: „%(value)s“ ist keine ganze Zahl."
    ),
    "Line %(line)s, column “%(column)s”: %(value)s is out of range.": (
        "Zeile %(line)s, Spalte „%(column)s“: %(value)s liegt außerhalb des Bereichs."
    ),
    "The first line must read: game, kind, soloist, 1, 2, 3, 4 (and 5 at a 5-table).": (
        "Die erste Zeile muss lauten: game, kind, soloist, 1, 2, 3, 4 (und 5 am Fünfer-Tisch)."
    ),
    "Line %(line)s: the game number is missing.": "Zeile %(line)s: die Spielnummer fehlt.",
    "Line %(line)s: unknown kind “%(kind)s” (N, P, V, L, H or S).": (
        "Zeile %(line)s: unbekannte Art „%(kind)s“ (N, P, V, L, H oder S)."
    ),
    "Line %(line)s: there is no position %(position)s at this table.": (
        "Zeile %(line)s: Position %(position)s gibt es an diesem Tisch nicht."
    ),
    # Sheet findings
    "The values of this row do not add up to 0 (sum %(sum)s).": (
        "Die Werte dieser Zeile ergeben nicht 0 (Zeilensumme %(sum)s)."
    ),
    "All values must be even or all odd (even/odd rule).": (
        "Alle Werte müssen gerade oder alle ungerade sein (Gerade-Ungerade-Regel)."
    ),
    "These values fit no game of this kind.": "Diese Werte passen zu keinem Spiel dieser Art.",
    "Position %(position)s deals and sits out this game and must have 0 points.": (
        "Position %(position)s gibt und sitzt in diesem Spiel aus: dort muss 0 stehen."
    ),
    "A solo needs the position of the soloist.": "Bei einem Solo fehlt die Position des Solisten.",
    "Position %(position)s deals and sits out: they cannot play the solo.": (
        "Position %(position)s gibt und sitzt aus und kann das Solo nicht spielen."
    ),
    "Position %(position)s has already played a Pflichtsolo.": (
        "Position %(position)s hat bereits ein Pflichtsolo gespielt."
    ),
    "Position %(position)s may play a Lustsolo only after their Pflichtsolo.": (
        "Position %(position)s darf ein Lustsolo erst nach dem eigenen Pflichtsolo spielen."
    ),
    "This game had to be a vorgeführtes Pflichtsolo of position %(position)s.": (
        "Dieses Spiel musste ein vorgeführtes Pflichtsolo von Position %(position)s sein."
    ),
    "Position %(position)s has not played a Pflichtsolo.": (
        "Position %(position)s hat kein Pflichtsolo gespielt."
    ),
    "%(count)s games: a round has only %(nominal)s.": (
        "%(count)s Spiele: eine Runde hat nur %(nominal)s."
    ),
    "%(count)s of %(nominal)s games (time limit or struck games?).": (
        "%(count)s von %(nominal)s Spielen (Zeitlimit oder gestrichene Spiele?)."
    ),
    "A game value of %(value)s is unusually high — typo?": (
        "Ein Spielwert von %(value)s ist ungewöhnlich hoch – Schreibfehler?"
    ),
    "Game numbers must run 1, 2, 3, …: expected %(expected)s here.": (
        "Die Spielnummern müssen 1, 2, 3, … lauten: hier wäre %(expected)s erwartet."
    ),
    # Invalid game facts
    "The facts must be a JSON object.": "Die Angaben müssen ein JSON-Objekt sein.",
    "Unknown field “%(field)s”.": "Unbekanntes Feld „%(field)s“.",
    "The field “%(field)s” is missing.": "Das Feld „%(field)s“ fehlt.",
    "“%(field)s” must be a whole number.": "„%(field)s“ muss eine ganze Zahl sein.",
    "“%(field)s” must be true or false.": "„%(field)s“ muss true oder false sein.",
    "A table has 4 or 5 players, not %(value)s.": (
        "An einem Tisch sitzen 4 oder 5 Spieler, nicht %(value)s."
    ),
    "There is no position %(dealer)s at a table of %(size)s.": (
        "Position %(dealer)s gibt es an einem Tisch mit %(size)s Spielern nicht."
    ),
    "At a 5-table the dealer (who sits out) must be given.": (
        "Am Fünfer-Tisch muss der Geber (der aussitzt) angegeben werden."
    ),
    "The kind must be “normal” or “solo”.": "Die Art muss „normal“ oder „solo“ sein.",
    "The Re positions must be different positions at the table.": (
        "Die Re-Positionen müssen verschiedene Positionen am Tisch sein."
    ),
    "A %(kind)s game has %(expected)s Re player(s), not %(given)s.": (
        "Ein Spiel der Art „%(kind)s“ hat %(expected)s Re-Spieler, nicht %(given)s."
    ),
    "Position %(dealer)s deals and sits out: they cannot be Re.": (
        "Position %(dealer)s gibt und sitzt aus und kann nicht Re sein."
    ),
    "Both parties cannot be without a trick.": "Nicht beide Parteien können ohne Stich sein.",
    "Announcements are “re” and/or “kontra”.": "Ansagen sind „re“ und/oder „kontra“.",
    "An Absage is 90, 60, 30 or 0 (schwarz).": "Eine Absage ist 90, 60, 30 oder 0 (schwarz).",
    "An Absage is only allowed after the party's own announcement (TSR 6.3.2).": (
        "Eine Absage ist nur nach der eigenen Ansage der Partei zulässig (TSR 6.3.2)."
    ),
    "Position %(offender)s is not playing in this game.": (
        "Position %(offender)s spielt in diesem Spiel nicht mit."
    ),
    "A normal game has no soloist.": "Ein Normalspiel hat keinen Solisten.",
    "Between 0 and 4 Absagen can count, not %(value)s.": (
        "Es zählen 0 bis 4 Absagen, nicht %(value)s."
    ),
    "This rule profile has no point deduction.": "Dieses Regelwerk kennt keinen Punktabzug.",
    "A point deduction is 1 to %(maximum)s points.": (
        "Ein Punktabzug beträgt 1 bis %(maximum)s Punkte."
    ),
    "This rule profile has no such sanction.": "Dieses Regelwerk kennt diese Sanktion nicht.",
    "%(games)s games at a %(size)s-table leave no room for %(soli)s Pflichtsoli.": (
        "%(games)s Spiele am %(size)s-er-Tisch lassen keinen Platz für %(soli)s Pflichtsoli."
    ),
    "A point deduction needs a maximum deduction of at least 1.": (
        "Ein Punktabzug braucht einen Höchstabzug von mindestens 1."
    ),
    # Seat draw
    "Rounds": "Runden",
    "Quality of the draw": "Qualität der Auslosung",
    "repeat encounters": "Wiederholte Begegnungen",
    "5-table spread": "Fünfertisch-Spanne",
    "Counted over all rounds up to this one. Repeat encounters: a pair sitting together k "
    "times counts k − 1; the lower bound is what arithmetic forces. Spread: difference between "
    "the most and least 5-table rounds of a player. Position balance: largest difference "
    "between how often a player has had two positions.": (
        "Gezählt über alle Runden bis zu dieser. Wiederholte Begegnungen: ein Paar, das k-mal "
        "zusammensitzt, zählt k − 1; die untere Schranke erzwingt die Arithmetik. Spanne: "
        "Unterschied zwischen den meisten und wenigsten Fünfertisch-Runden eines Spielers. "
        "Positionsausgleich: größter Unterschied, wie oft ein Spieler zwei Positionen hatte."
    ),
    "This round has not been drawn yet.": "Diese Runde ist noch nicht ausgelost.",
    "Swap two players": "Zwei Spieler tauschen",
    "Swap": "Tauschen",
    "Release": "Freigeben",
    "Release round %(number)s": "Runde %(number)s freigeben",
    "Draw log": "Auslosungsprotokoll",
    "seed": "Seed",
    "No round drawn yet.": "Noch keine Runde ausgelost.",
    "Draw": "Auslosung",
    "Released rounds stay as they are; a drawn round that is not released yet is drawn again.": (
        "Freigegebene Runden bleiben, wie sie sind; eine ausgeloste, noch nicht freigegebene "
        "Runde wird neu ausgelost."
    ),
    "Draw next round": "Nächste Runde auslosen",
    "Where do I sit?": "Wo sitze ich?",
    "Find": "Finden",
    "No released round yet.": "Noch keine Runde freigegeben.",
    "Nobody found.": "Niemand gefunden.",
    "All planned rounds have been played or released.": (
        "Alle geplanten Runden sind gespielt oder freigegeben."
    ),
    "Only a drawn round that is not released can be changed.": (
        "Nur eine ausgeloste, noch nicht freigegebene Runde kann geändert werden."
    ),
    "Choose two different players.": "Bitte zwei verschiedene Spieler wählen.",
    "Start number %(number)s has no seat in this round.": (
        "Startnummer %(number)s hat in dieser Runde keinen Platz."
    ),
    "Only a drawn round can be released.": "Nur eine ausgeloste Runde kann freigegeben werden.",
    "draw all remaining rounds": "alle restlichen Runden auslosen",
    "seed (optional)": "Seed (optional)",
    "The same seed and players reproduce the same draw.": (
        "Gleicher Seed und gleiche Spieler ergeben dieselbe Auslosung."
    ),
    "with start number": "mit Startnummer",
    "Players must be 1 to 10000 and rounds 1 to 100.": ("Spieler: 1 bis 10000, Runden: 1 bis 100."),
    "The time limit must be positive.": "Das Zeitlimit muss positiv sein.",
    "%(players)s players cannot be seated at tables of four and five: add %(add)s or remove "
    "%(remove)s.": (
        "%(players)s Spieler lassen sich nicht an Vierer- und Fünfertische setzen: "
        "%(add)s Spieler mehr oder %(remove)s weniger."
    ),
    "%(players)s players cannot be seated at tables of four and five: add %(add)s.": (
        "%(players)s Spieler lassen sich nicht an Vierer- und Fünfertische setzen: "
        "%(add)s Spieler mehr."
    ),
    "draw": "Auslosung",
    "redraw": "Neuauslosung",
    "swap": "Tausch",
    "release": "Freigabe",
    "time": "Zeit",
    "seconds": "Sekunden",
    "note": "Notiz",
    "draw log entry": "Protokolleintrag",
    "draw log": "Auslosungsprotokoll",
    "keep clubs apart in the first rounds": "Vereine in den ersten Runden trennen",
    "The draw avoids seating players of one club together in this many rounds.": (
        "Die Auslosung setzt Spieler eines Vereins in so vielen Runden nicht zusammen."
    ),
    "Please check the draw settings.": "Bitte die Einstellungen der Auslosung prüfen.",
    "Round(s) %(numbers)s drawn in %(seconds).1f s (seed %(seed)s).": (
        "Runde(n) %(numbers)s ausgelost in %(seconds).1f s (Seed %(seed)s)."
    ),
    "Seats swapped.": "Plätze getauscht.",
    "Enter two start numbers.": "Bitte zwei Startnummern eingeben.",
    "Round %(number)s released.": "Runde %(number)s freigegeben.",
    "Nobody has checked in yet: there is nobody to draw.": (
        "Noch niemand eingecheckt: es gibt niemanden auszulosen."
    ),
    "Release the earlier rounds first.": "Bitte zuerst die früheren Runden freigeben.",
    "Not found": "Nicht gefunden",
    "This page does not exist (any more). A table's link works only while its round is "
    "running; once the round is closed, the results are with the tournament office.": (
        "Diese Seite gibt es nicht (mehr). Der Link eines Tisches gilt nur, solange seine "
        "Runde läuft; nach dem Abschluss der Runde liegen die Ergebnisse beim Turnierbüro."
    ),
    "To the start page": "Zur Startseite",
    "Confirm the sheet of table %(number)s?": "Die Liste von Tisch %(number)s bestätigen?",
    "Close round %(number)s? Later changes need a reason.": (
        "Runde %(number)s abschließen? Spätere Änderungen brauchen eine Begründung."
    ),
    "For a sheet entered from the paper list: it must be complete and free of errors.": (
        "Für eine von der Papierliste erfasste Liste: sie muss vollständig und fehlerfrei sein."
    ),
    "Record the time limit now? Only vorgeführte Pflichtsoli may follow.": (
        "Den Zeitablauf jetzt festhalten? Danach folgen nur noch vorgeführte Pflichtsoli."
    ),
    "All games are entered. Check the list and submit it below.": (
        "Alle Spiele sind eingetragen. Bitte die Liste prüfen und unten abgeben."
    ),
    "Enter another game": "Weiteres Spiel eintragen",
    "The sheet of table %(table)s has %(count)s error(s). Correct them first.": (
        "Die Liste von Tisch %(table)s hat %(count)s Fehler. Bitte zuerst korrigieren."
    ),
    "The time limit can only be recorded on an open sheet.": (
        "Der Zeitablauf kann nur bei einer offenen Liste festgehalten werden."
    ),
    "list keeper of table %(number)s": "Listenführer Tisch %(number)s",
    "The solo was": "Das Solo wurde",
    "replace the rows already entered": "die schon erfassten Zeilen ersetzen",
    "The time was up before this game: only vorgeführte Pflichtsoli may follow.": (
        "Die Zeit war vor diesem Spiel abgelaufen: es dürfen nur vorgeführte Pflichtsoli folgen."
    ),
    "Nothing was removed.": "Es wurde nichts entfernt.",
    "The file holds no games.": "Die Datei enthält keine Spiele.",
    "This sheet already has games: tick “replace the rows already entered” to overwrite them.": (
        "Diese Liste hat schon Spiele: zum Überschreiben „die schon erfassten Zeilen ersetzen“ "
        "ankreuzen."
    ),
    "Sheet submitted.": "Liste abgegeben.",
    "Standings": "Rangliste",
    "Provisional standings": "Vorläufiger Stand",
    "Final standings": "Endstand",
    "as of %(time)s": "%(time)s Uhr",
    "Teams": "Teams",
    "Rank": "Platz",
    "share the rank": "teilen sich den Platz",
    "better best round ranks higher": "bessere beste Runde liegt vorn",
    "more rounds played ranks higher": "mehr gespielte Runden liegen vorn",
    "best round, then rounds played": "beste Runde, dann gespielte Runden",
    "live standings (provisional)": "Live-Rangliste (vorläufig)",
    "Count every entered game at once, marked as provisional. Otherwise only confirmed "
    "sheets and closed rounds count.": (
        "Jedes eingetragene Spiel zählt sofort, als vorläufig gekennzeichnet. Sonst zählen "
        "nur bestätigte Listen und abgeschlossene Runden."
    ),
    "equal totals": "bei Punktgleichheit",
    "R%(number)s": "R%(number)s",
    "No results yet.": "Noch keine Ergebnisse.",
    "Download": "Herunterladen",
    "Standings, rounds and teams": "Rangliste, Runden und Teams",
    "generated %(generated)s": "erstellt %(generated)s",
    "provisional": "vorläufig",
    "final": "endgültig",
    "points": "Punkte",
    "Table plan": "Tischplan",
    "No round has been released yet.": "Noch keine Runde freigegeben.",
    "Print pack (PDF)": "Druckpaket (PDF)",
    "Seat list in alphabetical order": "Sitzliste, alphabetisch",
    "list keeper": "Listenführer",
    "deals game 1": "gibt Spiel 1",
    "Scan to enter the games online": "Scannen, um die Spiele online einzutragen",
    "dealer": "Geber",
    "The dealer sits out (shaded).": "Der Geber setzt aus (grau hinterlegt).",
    "Pflichtsolo played in game": "Pflichtsolo gespielt in Spiel",
    "Signatures": "Unterschriften",
    "Countersignature (another player)": "Gegenzeichnung (anderer Spieler)",
    "fold here": "hier falten",
    "position 1 deals the first game, ✎ keeps the list": (
        "Position 1 gibt das erste Spiel, ✎ führt die Liste"
    ),
    "%(size)s players": "%(size)s Spieler",
    "Print pack": "Druckpaket",
    "Generated on %(when)s": "Erstellt am %(when)s",
    "Page {page} of {pages}": "Seite {page} von {pages}",
    "time left": "Restzeit",
    "time is up": "Zeit abgelaufen",
    "Confirm": "Bestätigen",
    "This round has no tables yet.": "Diese Runde hat noch keine Tische.",
    "Board": "Übersicht",
    "Every table of the round with its sheet. The board refreshes itself.": (
        "Alle Tische der Runde mit ihrer Spielliste. Die Übersicht aktualisiert sich selbst."
    ),
    "Close the round when every sheet is confirmed. Later changes need a reason.": (
        "Die Runde abschließen, wenn alle Listen bestätigt sind. Spätere Änderungen brauchen "
        "eine Begründung."
    ),
    "Close round %(number)s": "Runde %(number)s abschließen",
    "Change history": "Änderungsverlauf",
    "List keeper's link": "Link für den Listenführer",
    "Desk entry": "Erfassung im Turnierbüro",
    (
        "Kind: N normal, P Pflichtsolo, V vorgeführt, L Lustsolo, H Hochzeit (solo), S "
        "stille Hochzeit. Enter moves to the next field; Ctrl+Enter saves."
    ): (
        "Art: N Normalspiel, P Pflichtsolo, V vorgeführt, L Lustsolo, H Hochzeit (Solo), S "
        "stille Hochzeit. Enter springt ins nächste Feld; Strg+Enter speichert."
    ),
    "enter per game": "je Spiel erfassen",
    "enter running totals (as on the paper list)": (
        "laufende Summen erfassen (wie auf der Papierliste)"
    ),
    "Nothing was saved: please correct the marked lines.": (
        "Nichts gespeichert: bitte die markierten Zeilen korrigieren."
    ),
    "Solo": "Solo",
    "Line %(number)s": "Zeile %(number)s",
    "reason for the change": "Grund der Änderung",
    "Save sheet": "Liste speichern",
    "Import a sheet file": "Spielliste aus Datei übernehmen",
    (
        "CSV or XLSX with the columns game, kind, soloist, 1, 2, 3, 4 (5). The file "
        "replaces the rows of this sheet."
    ): (
        "CSV oder XLSX mit den Spalten Spiel, Art, Solist, 1, 2, 3, 4 (5). Die Datei ersetzt "
        "die Zeilen dieser Liste."
    ),
    "Grant": "Gewähren",
    "Time limit": "Zeitablauf",
    (
        "Record that the time is up after the games entered so far: only vorgeführte "
        "Pflichtsoli follow."
    ): (
        "Festhalten, dass die Zeit nach den bisher eingetragenen Spielen abgelaufen ist: es "
        "folgen nur noch vorgeführte Pflichtsoli."
    ),
    "Record the time limit": "Zeitablauf festhalten",
    "Confirm the sheet": "Spielliste bestätigen",
    "Reopen the sheet": "Spielliste wieder öffnen",
    "Reopen": "Wieder öffnen",
    "when": "wann",
    "what": "was",
    "who / reason": "wer / Grund",
    "entered": "eingetragen",
    "removed": "entfernt",
    "changed": "geändert",
    "No rows yet.": "Noch keine Zeilen.",
    "Change game %(number)s": "Spiel %(number)s ändern",
    "Game %(number)s": "Spiel %(number)s",
    "Save game": "Spiel speichern",
    "cancel": "abbrechen",
    "Remove the last game?": "Das letzte Spiel entfernen?",
    "Remove game %(number)s": "Spiel %(number)s entfernen",
    (
        "Time is up. When the game in progress is entered, record the time limit: from "
        "then on only vorgeführte Pflichtsoli follow."
    ): (
        "Die Zeit ist abgelaufen. Wenn das laufende Spiel eingetragen ist, den Zeitablauf "
        "festhalten: danach folgen nur noch vorgeführte Pflichtsoli."
    ),
    "Submit the sheet": "Spielliste abgeben",
    (
        "When all games are entered and no error is left. A second player of the table "
        "then confirms it."
    ): (
        "Wenn alle Spiele eingetragen sind und kein Fehler mehr angezeigt wird. Ein zweiter "
        "Spieler des Tisches bestätigt die Liste danach."
    ),
    "your start number": "Ihre Startnummer",
    "Submit": "Abgeben",
    "Submitted by %(who)s. Another player of the table checks the list and confirms it.": (
        "Abgegeben von %(who)s. Ein anderer Spieler des Tisches prüft die Liste und bestätigt sie."
    ),
    "This sheet is done. Changes only through the tournament office.": (
        "Diese Liste ist abgeschlossen. Änderungen nur über das Turnierbüro."
    ),
    "Game %(number)s must be a vorgeführtes Pflichtsolo of %(position)s · %(name)s.": (
        "Spiel %(number)s muss ein vorgeführtes Pflichtsolo von %(position)s · %(name)s sein."
    ),
    "total": "Summe",
    "deals and sits out": "gibt und setzt aus",
    "deals": "gibt",
    "still owes a Pflichtsolo": "muss noch ein Pflichtsolo spielen",
    "Pflichtsolo open": "Pflichtsolo offen",
    "change": "ändern",
    "Error": "Fehler",
    "Note": "Hinweis",
    "No game entered yet.": "Noch kein Spiel eingetragen.",
    "until": "bis",
    (
        "The playing time is over: only the game already started and the vorgeführte "
        "Pflichtsoli remain; the other games are struck."
    ): (
        "Die Spielzeit ist abgelaufen: nur noch das begonnene Spiel und die vorgeführten "
        "Pflichtsoli werden gespielt; die übrigen Spiele entfallen."
    ),
    "Still to play as vorgeführtes Pflichtsolo:": "Noch als vorgeführtes Pflichtsolo zu spielen:",
    (
        "Game %(number)s was changed by somebody else in the meantime. Nothing was saved:"
        " compare both versions and enter yours again if it is right."
    ): (
        "Spiel %(number)s wurde inzwischen von jemand anderem geändert. Nichts wurde "
        "gespeichert: bitte beide Fassungen vergleichen und Ihre erneut eingeben, wenn sie "
        "stimmt."
    ),
    "This round has not been released yet.": "Diese Runde ist noch nicht freigegeben.",
    "The round is closed. Ask the tournament office.": (
        "Die Runde ist abgeschlossen. Bitte an das Turnierbüro wenden."
    ),
    "The sheet has been submitted. Ask the tournament office for changes.": (
        "Die Liste ist abgegeben. Änderungen bitte über das Turnierbüro."
    ),
    "Changing a submitted sheet or a closed round needs a reason.": (
        "Änderungen an einer abgegebenen Liste oder einer abgeschlossenen Runde brauchen eine"
        " Begründung."
    ),
    "Unknown kind of game.": "Unbekannte Spielart.",
    "A row needs one value per player.": "Eine Zeile braucht einen Wert je Spieler.",
    "Values are limited to ±%(limit)s points — typo?": (
        "Werte sind auf ±%(limit)s Punkte begrenzt – Tippfehler?"
    ),
    "This form belongs to another table.": "Dieses Formular gehört zu einem anderen Tisch.",
    "Only the last game can be removed; correct the others.": (
        "Nur das letzte Spiel kann entfernt werden; die anderen bitte korrigieren."
    ),
    "Only sheets of a running round can be submitted.": (
        "Nur Listen einer laufenden Runde können abgegeben werden."
    ),
    "The sheet has already been submitted.": "Die Liste ist bereits abgegeben.",
    "Enter your start number: it must be one of this table.": (
        "Bitte Ihre Startnummer eingeben: sie muss zu diesem Tisch gehören."
    ),
    "The sheet is not complete: %(count)s of %(nominal)s games.": (
        "Die Liste ist nicht vollständig: %(count)s von %(nominal)s Spielen."
    ),
    "The sheet has %(count)s error(s). Correct them before submitting.": (
        "Die Liste hat %(count)s Fehler. Bitte vor der Abgabe korrigieren."
    ),
    "Only a submitted sheet can be confirmed.": "Nur eine abgegebene Liste kann bestätigt werden.",
    "The sheet must be confirmed by somebody else.": (
        "Die Liste muss von jemand anderem bestätigt werden."
    ),
    "Only the tournament office can reopen a sheet.": (
        "Nur das Turnierbüro kann eine Liste wieder öffnen."
    ),
    "Reopening a sheet needs a reason.": "Das Wiederöffnen einer Liste braucht eine Begründung.",
    "Only sheets of a running round can be reopened.": (
        "Nur Listen einer laufenden Runde können wieder geöffnet werden."
    ),
    "The playing time is not over yet.": "Die Spielzeit ist noch nicht abgelaufen.",
    "Only a referee or the tournament office can grant extra time.": (
        "Nur ein Schiedsrichter oder das Turnierbüro kann Nachspielzeit gewähren."
    ),
    "Extra time needs a reason.": "Nachspielzeit braucht eine Begründung.",
    "Extra time is 1 to 120 minutes.": "Nachspielzeit beträgt 1 bis 120 Minuten.",
    "Only tables of a running round get extra time.": (
        "Nur Tische einer laufenden Runde erhalten Nachspielzeit."
    ),
    "Only a released round can be closed.": (
        "Nur eine freigegebene Runde kann abgeschlossen werden."
    ),
    "Not every sheet is confirmed yet (tables %(tables)s).": (
        "Noch nicht alle Listen sind bestätigt (Tische %(tables)s)."
    ),
    "start no. %(number)s": "Startnr. %(number)s",
    "how to enter": "Eingabe",
    "winners": "Gewinner",
    "won": "gewonnen",
    "lost": "verloren",
    "game value": "Spielwert",
    "Enter a number for every player (0 for none).": (
        "Bitte für jeden Spieler eine Zahl eingeben (0 für keine)."
    ),
    "Enter the game value.": "Bitte den Spielwert eingeben.",
    "minutes": "Minuten",
    "sheet file (CSV or XLSX)": "Listendatei (CSV oder XLSX)",
    "the numbers are running totals": "die Zahlen sind laufende Summen",
    "reason (for a submitted sheet)": "Grund (bei einer abgegebenen Liste)",
    "Game %(number)s is empty; fill the lines without gaps.": (
        "Spiel %(number)s ist leer; bitte die Zeilen ohne Lücke ausfüllen."
    ),
    "Unknown kind “%(kind)s” (N, P, V, L, H or S).": (
        "Unbekannte Art „%(kind)s“ (N, P, V, L, H oder S)."
    ),
    "There is no position “%(position)s” at this table.": (
        "An diesem Tisch gibt es keine Position „%(position)s“."
    ),
    "“%(text)s” under position %(position)s is not a whole number.": (
        "„%(text)s“ bei Position %(position)s ist keine ganze Zahl."
    ),
    "%(value)s points is not possible — typo?": "%(value)s Punkte sind nicht möglich – Tippfehler?",
    "The game value must be between 0 and %(maximum)s.": (
        "Der Spielwert muss zwischen 0 und %(maximum)s liegen."
    ),
    "Say whether the soloist won or lost.": (
        "Bitte angeben, ob das Solo gewonnen oder verloren wurde."
    ),
    "Position %(position)s deals and sits out this game.": (
        "Position %(position)s gibt und setzt in diesem Spiel aus."
    ),
    "A normal game has two winners; %(given)s were chosen.": (
        "Ein Normalspiel hat zwei Gewinner; gewählt wurden %(given)s."
    ),
    "rate limit bucket": "Zugriffszähler",
    "rate limit buckets": "Zugriffszähler",
    "started": "begonnen",
    "open": "offen",
    "submitted": "abgegeben",
    "confirmed": "bestätigt",
    "sheet": "Spielliste",
    "submitted by": "abgegeben von",
    "confirmed by": "bestätigt von",
    "extra time (minutes)": "Nachspielzeit (Minuten)",
    "reason for the extra time": "Grund der Nachspielzeit",
    "first game after the time limit": "erstes Spiel nach Zeitablauf",
    "struck games": "gestrichene Spiele",
    "Too many attempts. Please wait %(seconds)s seconds.": (
        "Zu viele Versuche. Bitte %(seconds)s Sekunden warten."
    ),
    "Game %(number)s saved.": "Spiel %(number)s gespeichert.",
    "The last game was removed.": "Das letzte Spiel wurde entfernt.",
    "Confirmed. Thank you!": "Bestätigt. Vielen Dank!",
    "not started": "nicht begonnen",
    "in progress": "läuft",
    "Choose a file.": "Bitte eine Datei auswählen.",
    "The file is for a table of %(file)s, this table has %(table)s players.": (
        "Die Datei ist für einen Tisch mit %(file)s Spielern, dieser Tisch hat %(table)s."
    ),
    "Game %(number)s: penalties are entered by the referees, not imported.": (
        "Spiel %(number)s: Strafpunkte tragen die Schiedsrichter ein, sie werden nicht importiert."
    ),
    "Sheet confirmed.": "Liste bestätigt.",
    "Sheet reopened.": "Liste wieder geöffnet.",
    "Enter the minutes and a reason.": "Bitte Minuten und Grund angeben.",
    "Extra time granted.": "Nachspielzeit gewährt.",
    "Time limit recorded.": "Zeitablauf festgehalten.",
    "Round %(number)s closed.": "Runde %(number)s abgeschlossen.",
    # Referees and penalties
    "Referee": "Schiedsrichter",
    "Referee desk": "Schiedsrichter-Tisch",
    "Penalties": "Strafen",
    "Referee accounts": "Schiedsrichter-Zugänge",
    "Open questions": "Offene Fragen",
    "Nothing open.": "Nichts offen.",
    "Tables calling a referee": "Tische rufen einen Schiedsrichter",
    "game %(number)s": "Spiel %(number)s",
    "Enter a penalty": "Strafe eintragen",
    "Done": "Erledigt",
    "Penalties waiting for a signature": "Strafen ohne Unterschrift",
    "Round %(round)s, table %(table)s, game %(game)s": (
        "Runde %(round)s, Tisch %(table)s, Spiel %(game)s"
    ),
    "Sheets with errors": "Listen mit Fehlern",
    "No round is running yet.": "Es läuft noch keine Runde.",
    "calling": "ruft",
    "Penalty": "Strafe",
    "Latest penalties": "Letzte Strafen",
    "All penalties": "Alle Strafen",
    "revoked": "aufgehoben",
    "No penalties.": "Keine Strafen.",
    "Referees log in at %(login_url)s and find the referee desk of this tournament. They enter "
    "and sign penalties, grant extra time and look after the sheets; the tournament settings, "
    "the draw and the closing of rounds stay with the directors.": (
        "Schiedsrichter melden sich unter %(login_url)s an und finden dort den "
        "Schiedsrichter-Tisch dieses Turniers. Sie tragen Strafen ein und unterschreiben sie, "
        "gewähren Nachspielzeit und kümmern sich um die Spiellisten; Turniereinstellungen, "
        "Auslosung und Rundenabschluss bleiben bei der Turnierleitung."
    ),
    "user name": "Benutzername",
    "Remove this referee from the tournament?": "Diesen Schiedsrichter aus dem Turnier entfernen?",
    "No referees yet. As a director you can act as referee yourself.": (
        "Noch keine Schiedsrichter. Als Turnierleitung können Sie selbst als Schiedsrichter "
        "handeln."
    ),
    "Add a referee": "Schiedsrichter hinzufügen",
    "An existing account by its user name, or a new one (then with a password).": (
        "Ein bestehender Zugang über seinen Benutzernamen oder ein neuer (dann mit Passwort)."
    ),
    "Add referee": "Schiedsrichter hinzufügen",
    "You are not a referee of any tournament yet. The tournament director adds you.": (
        "Sie sind noch bei keinem Turnier Schiedsrichter. Die Turnierleitung trägt Sie ein."
    ),
    "Penalty no. %(id)s": "Strafe Nr. %(id)s",
    "Replaces penalty no. %(id)s.": "Ersetzt Strafe Nr. %(id)s.",
    "Replaced by penalty no. %(id)s.": "Ersetzt durch Strafe Nr. %(id)s.",
    "game situation": "Spielsituation",
    "could disadvantage the soloist (b1)": "konnte dem Solisten schaden (b1)",
    "entered by": "eingetragen von",
    "signed": "unterschrieben",
    "not yet: the penalty does not count": "noch nicht: die Strafe zählt nicht",
    "Sign this penalty? It counts at once.": "Diese Strafe unterschreiben? Sie zählt sofort.",
    "Sign penalty": "Strafe unterschreiben",
    "Revoke": "Aufheben",
    "Revoke penalty": "Strafe aufheben",
    "Revoke and replace by another decision": (
        "Aufheben und durch eine andere Entscheidung ersetzen"
    ),
    "Other penalties of this player": "Weitere Strafen dieses Spielers",
    "This round is closed: only the tournament director can enter penalties, with a reason.": (
        "Diese Runde ist abgeschlossen: nur die Turnierleitung kann Strafen eintragen, mit "
        "Begründung."
    ),
    "This decision replaces penalty no. %(id)s (%(category)s), which is revoked when you save.": (
        "Diese Entscheidung ersetzt Strafe Nr. %(id)s (%(category)s); sie wird beim Speichern "
        "aufgehoben."
    ),
    "The row this decision gives": "Die Zeile, die sich aus dieser Entscheidung ergibt",
    "Position %(position)s deals this game and sits out: 0.": (
        "Position %(position)s gibt in diesem Spiel und setzt aus: 0."
    ),
    "Earlier penalties of this player:": "Frühere Strafen dieses Spielers:",
    "Signing makes the penalty count at once on the sheet and in the standings. Your name and "
    "the time are recorded.": (
        "Mit der Unterschrift zählt die Strafe sofort auf der Spielliste und in der Wertung. "
        "Ihr Name und die Uhrzeit werden festgehalten."
    ),
    "Save without signature": "Ohne Unterschrift speichern",
    "Only when a Kontra player offends: b1 gives offender −3 and soloist +3 (TSR 9.3.3).": (
        "Nur wenn ein Kontra-Spieler verstößt: b1 ergibt Verursacher −3 und Solist +3 (TSR 9.3.3)."
    ),
    "Show the row": "Zeile berechnen",
    "Download as Excel (xlsx)": "Als Excel-Datei (xlsx) herunterladen",
    "A referee has been called (at %(time)s) and is on the way.": (
        "Ein Schiedsrichter ist gerufen (um %(time)s) und kommt."
    ),
    "Call a referee to this table?": "Einen Schiedsrichter an diesen Tisch rufen?",
    "what is it about? (optional)": "Worum geht es? (freiwillig)",
    "Call a referee": "Schiedsrichter rufen",
    "signed by": "unterschrieben von",
    "Round %(number)s seats players who are no longer playing (withdrawn or disqualified): "
    "%(names)s. Draw the round again first.": (
        "In Runde %(number)s sitzen Spieler, die nicht mehr spielen (abgemeldet oder "
        "disqualifiziert): %(names)s. Bitte die Runde zuerst neu auslosen."
    ),
    "offender's points": "Punkte des Verursachers",
    "revoked at": "aufgehoben am",
    "revoked by": "aufgehoben von",
    "reason for the revocation": "Grund der Aufhebung",
    "replaces": "ersetzt",
    "when (UTC)": "wann (UTC)",
    "by": "von",
    "deleted": "gelöscht",
    "not signed": "nicht unterschrieben",
    "History": "Verlauf",
    "Round %(number)s is closed: only the tournament director can change penalties.": (
        "Runde %(number)s ist abgeschlossen: nur die Turnierleitung kann Strafen ändern."
    ),
    "Unknown penalty category.": "Unbekannte Strafart.",
    "Nobody sits at position %(position)s of table %(table)s.": (
        "An Position %(position)s von Tisch %(table)s sitzt niemand."
    ),
    "Game %(number)s is not on the sheet of table %(table)s: it has %(count)s games, so the "
    "penalty belongs to game 1 to %(next)s (the game being played).": (
        "Spiel %(number)s steht nicht auf der Liste von Tisch %(table)s: sie hat %(count)s "
        "Spiele, die Strafe gehört also zu Spiel 1 bis %(next)s (dem laufenden Spiel)."
    ),
    "The tournament's rule profile does not provide this sanction.": (
        "Das Regelwerk des Turniers sieht diese Sanktion nicht vor."
    ),
    "At most %(maximum)s points can be deducted under this rule profile.": (
        "Nach diesem Regelwerk können höchstens %(maximum)s Punkte abgezogen werden."
    ),
    "Game %(number)s is a normal game on the sheet: a solo situation does not fit.": (
        "Spiel %(number)s ist auf der Liste ein Normalspiel: eine Solo-Situation passt nicht."
    ),
    "Game %(number)s is a Hochzeit on the sheet: say whether the violation came before or "
    "after it became a solo.": (
        "Spiel %(number)s ist auf der Liste eine Hochzeit: bitte angeben, ob der Verstoß vor "
        "oder nach dem Übergang zum Solo geschah."
    ),
    "The sheet has position %(soloist)s as the soloist of game %(number)s.": (
        "Laut Liste spielt Position %(soloist)s das Solo in Spiel %(number)s."
    ),
    "Position %(position)s sits out game %(number)s (the dealer at a 5-table) and cannot have "
    "committed this violation.": (
        "Position %(position)s setzt in Spiel %(number)s aus (Geber am Fünfertisch) und kann "
        "diesen Verstoß nicht begangen haben."
    ),
    "The soloist cannot be the player who sits out this game.": (
        "Der Solist kann nicht der aussetzende Spieler sein."
    ),
    "Name the soloist of this game.": "Bitte den Solisten dieses Spiels angeben.",
    "The other party can have made at most 4 Absagen (keine 90 to schwarz).": (
        "Die Gegenpartei kann höchstens 4 Absagen gemacht haben (keine 90 bis schwarz)."
    ),
    "Deduct between 1 and %(maximum)s points.": "Abzug zwischen 1 und %(maximum)s Punkten.",
    "These facts do not fit together.": "Diese Angaben passen nicht zusammen.",
    "A penalty in a closed round needs a reason.": (
        "Eine Strafe in einer abgeschlossenen Runde braucht eine Begründung."
    ),
    "A replacement belongs to the same table.": "Eine Ersetzung gehört zum selben Tisch.",
    "replaces a revoked penalty": "ersetzt eine aufgehobene Strafe",
    "A revoked penalty cannot be signed.": (
        "Eine aufgehobene Strafe kann nicht unterschrieben werden."
    ),
    "This penalty has already been signed.": "Diese Strafe ist bereits unterschrieben.",
    "Revoking a penalty needs a reason.": "Das Aufheben einer Strafe braucht eine Begründung.",
    "This penalty has already been revoked.": "Diese Strafe ist bereits aufgehoben.",
    "disqualified by a referee (penalty %(id)s)": (
        "vom Schiedsrichter disqualifiziert (Strafe %(id)s)"
    ),
    "disqualification revoked: %(reason)s": "Disqualifikation aufgehoben: %(reason)s",
    "The violation could disadvantage the soloist (b1)": (
        "Der Verstoß konnte dem Solisten schaden (b1)"
    ),
    "Absagen the other party had made (k)": "Absagen der Gegenpartei bis dahin (k)",
    "keine 90, keine 60, keine 30, schwarz: 0 to 4": (
        "keine 90, keine 60, keine 30, schwarz: 0 bis 4"
    ),
    "points deducted": "abgezogene Punkte",
    "what happened": "was ist passiert",
    "why the earlier decision is revoked": "warum die frühere Entscheidung aufgehoben wird",
    "–": "–",
    "1 to %(maximum)s points, credited to nobody": (
        "1 bis %(maximum)s Punkte, niemandem gutgeschrieben"
    ),
    "How many points are deducted?": "Wie viele Punkte werden abgezogen?",
    "Who plays the solo?": "Wer spielt das Solo?",
    "password (new accounts only)": "Passwort (nur für neue Zugänge)",
    "No account has this user name: give a password to create it.": (
        "Es gibt keinen Zugang mit diesem Benutzernamen: zum Anlegen ein Passwort angeben."
    ),
    "Hochzeit / stille Hochzeit, before it became a solo": (
        "Hochzeit / stille Hochzeit, bevor sie zum Solo wurde"
    ),
    "Hochzeit / stille Hochzeit, after it became a solo": (
        "Hochzeit / stille Hochzeit, nachdem sie zum Solo wurde"
    ),
    "could disadvantage the soloist": "konnte dem Solisten schaden",
    "Absagen of the other party (k)": "Absagen der Gegenpartei (k)",
    "deduction": "Abzug",
    "handled at": "erledigt am",
    "handled by": "erledigt von",
    "referee call": "Schiedsrichter-Ruf",
    "referee calls": "Schiedsrichter-Rufe",
    "The facts changed: check the row again, then sign.": (
        "Die Angaben haben sich geändert: bitte die Zeile erneut prüfen und dann unterschreiben."
    ),
    "Penalty saved unsigned: it counts once a referee signs it.": (
        "Strafe ohne Unterschrift gespeichert: sie zählt, sobald ein Schiedsrichter unterschreibt."
    ),
    "Penalty signed: it counts now.": "Strafe unterschrieben: sie zählt jetzt.",
    "Penalty revoked: it no longer counts.": "Strafe aufgehoben: sie zählt nicht mehr.",
    "Call from table %(table)s done.": "Ruf von Tisch %(table)s erledigt.",
    "%(name)s is a referee of this tournament now.": (
        "%(name)s ist jetzt Schiedsrichter dieses Turniers."
    ),
    "This account is not a referee of the tournament.": (
        "Dieser Zugang ist kein Schiedsrichter des Turniers."
    ),
    "%(name)s is no longer a referee of this tournament.": (
        "%(name)s ist nicht mehr Schiedsrichter dieses Turniers."
    ),
    "The note is too long or contains control characters.": (
        "Die Notiz ist zu lang oder enthält Steuerzeichen."
    ),
    "A referee has been called to your table.": "Ein Schiedsrichter wurde an Ihren Tisch gerufen.",
    "“%(slug)s” is a page of the site; choose another short name.": (
        "„%(slug)s“ ist eine Seite der Anwendung; bitte einen anderen Kurznamen wählen."
    ),
    "Game %(number)s is not on the sheet of table %(table)s: it has all %(count)s games.": (
        "Spiel %(number)s steht nicht auf der Liste von Tisch %(table)s: sie hat alle "
        "%(count)s Spiele."
    ),
    "Game %(number)s is a solo on the sheet, not a Hochzeit.": (
        "Spiel %(number)s ist auf der Liste ein Solo, keine Hochzeit."
    ),
    "The sheet changed since this penalty was entered: %(problem)s Revoke it and enter the "
    "decision again.": (
        "Die Liste hat sich geändert, seit diese Strafe eingetragen wurde: %(problem)s Bitte "
        "aufheben und die Entscheidung neu eintragen."
    ),
    "The sheet changed since this penalty was entered: it would now give %(points)s. Revoke "
    "it and enter the decision again.": (
        "Die Liste hat sich geändert, seit diese Strafe eingetragen wurde: sie ergäbe jetzt "
        "%(points)s. Bitte aufheben und die Entscheidung neu eintragen."
    ),
    "Not allowed": "Nicht erlaubt",
    "role": "Rolle",
    "director": "Turnierleitung",
    "administrator": "Administrator",
    "system (command line)": "System (Kommandozeile)",
    "user": "Benutzer",
    "Request refused": "Anfrage abgelehnt",
    "The request was too large or malformed, so nothing was saved. Player lists can be "
    "imported up to 2 MB; enter long texts in shorter parts.": (
        "Die Anfrage war zu groß oder fehlerhaft, es wurde nichts gespeichert. Spielerlisten "
        "können bis 2 MB importiert werden; lange Texte bitte in kürzeren Teilen eingeben."
    ),
    "This page is for the tournament director. Referees and list keepers find their pages "
    "through the referee desk and the table links.": (
        "Diese Seite ist für die Turnierleitung. Schiedsrichter und Listenführer finden ihre "
        "Seiten über den Schiedsrichter-Tisch und die Tisch-Links."
    ),
    "Round %(number)s is closed: only the tournament director can change its sheets.": (
        "Runde %(number)s ist abgeschlossen: nur die Turnierleitung kann ihre Listen ändern."
    ),
    "Letters, digits and @ . + - _ only.": "Nur Buchstaben, Ziffern und @ . + - _.",
    "This penalty has already been saved.": "Diese Strafe ist bereits gespeichert.",
    "Penalty signed: %(points)s. It is on the table's sheet and counts in the standings.": (
        "Strafe unterschrieben: %(points)s. Sie steht auf der Liste des Tisches und zählt in "
        "der Wertung."
    ),
    "Penalty no. %(id)s has already been revoked.": "Strafe Nr. %(id)s ist bereits aufgehoben.",
    "Somebody has already taken care of this call.": (
        "Um diesen Ruf hat sich bereits jemand gekümmert."
    ),
    "The account existed already: its password and name stay as they were.": (
        "Den Zugang gab es bereits: Passwort und Name bleiben unverändert."
    ),
    "Too many failed logins. Please wait %(minutes)s minute(s).": (
        "Zu viele fehlgeschlagene Anmeldungen. Bitte %(minutes)s Minute(n) warten."
    ),
    # --- hall mode ---
    "This site does not answer to the address you used.": (
        "Diese Seite antwortet nicht auf die Adresse, die Sie verwendet haben."
    ),
    "Please open:": "Bitte öffnen Sie:",
    (
        "Tournament office: to allow another name for this laptop, start it with HALL_ADDRESS "
        "set to that name."
    ): (
        "Für die Turnierleitung: Soll der Laptop unter einem anderen Namen erreichbar sein, "
        "starten Sie ihn mit HALL_ADDRESS auf diesen Namen gesetzt."
    ),
    (
        "PDF files cannot be made on this computer: the Pango library they are drawn with is "
        "missing. The README says how to install it (Printing on Windows and macOS); "
        "everything else works without it."
    ): (
        "Auf diesem Computer lassen sich keine PDF-Dateien erzeugen: Die Bibliothek Pango, mit "
        "der sie gezeichnet werden, fehlt. Die README sagt, wie man sie installiert (Drucken "
        "unter Windows und macOS); alles andere funktioniert ohne sie."
    ),
    (
        "No director account exists yet. Create one in another window, in this folder, with: "
        "%(command)s"
    ): (
        "Es gibt noch keinen Zugang für die Turnierleitung. Legen Sie ihn in einem zweiten "
        "Fenster in diesem Ordner an mit: %(command)s"
    ),
    "(with the same DATABASE_URL as here)": "(mit derselben DATABASE_URL wie hier)",
    (
        "This is an internet address: hall mode serves plain http for a private network. On "
        "the internet, run the site behind HTTPS (README)."
    ): (
        "Das ist eine Internet-Adresse: Der Hallenbetrieb liefert unverschlüsseltes http für "
        "ein privates Netz. Im Internet gehört die Seite hinter HTTPS (README)."
    ),
    (
        "Port %(port)s is in use — is Kreuzdame already running? Start with another port: "
        "PORT=8080 make hall (Windows: set PORT=8080, then start again)."
    ): (
        "Port %(port)s ist belegt — läuft Kreuzdame schon? Mit einem anderen Port starten: "
        "PORT=8080 make hall (Windows: set PORT=8080, dann erneut starten)."
    ),
    "Nothing was created.": "Es wurde nichts angelegt.",
    "User name: ": "Benutzername: ",
    "--noinput needs --username and the password in %(variable)s.": (
        "--noinput braucht --username und das Passwort in %(variable)s."
    ),
    "Something went wrong": "Etwas ist schiefgegangen",
    (
        "The site could not answer this request. Nothing you entered before was lost: go back "
        "and try again in a moment."
    ): (
        "Die Seite konnte diese Anfrage nicht beantworten. Was Sie vorher eingegeben haben, "
        "ist nicht verloren: gehen Sie zurück und versuchen Sie es gleich noch einmal."
    ),
    (
        "If it happens again, tell the tournament office; the error has been written to the "
        "log on the server."
    ): (
        "Wenn es wieder passiert, sagen Sie der Turnierleitung Bescheid; der Fehler steht im "
        "Protokoll auf dem Server."
    ),
    "Enter a user name.": "Bitte einen Benutzernamen eingeben.",
    "The user name %(name)s is taken.": "Der Benutzername %(name)s ist bereits vergeben.",
    "Preparing the database and the files of the site …": (
        "Datenbank und Dateien der Seite werden vorbereitet …"
    ),
    "No director account exists yet: create one now.": (
        "Es gibt noch keinen Zugang für die Turnierleitung: jetzt anlegen."
    ),
    "User name [leitung]: ": "Benutzername [leitung]: ",
    "Password: ": "Passwort: ",
    "Password (again): ": "Passwort (wiederholen): ",
    "The two passwords differ.": "Die beiden Passwörter stimmen nicht überein.",
    "Director account %s created.": "Zugang %s für die Turnierleitung angelegt.",
    "Kreuzdame — tournament day (hall mode)": "Kreuzdame — Turniertag (Hallenbetrieb)",
    "Address for the phones:": "Adresse für die Handys:",
    "Directors log in at:": "Anmeldung der Turnierleitung:",
    "On this laptop also:": "Auf diesem Laptop auch:",
    "Other addresses of this laptop (choose one with HALL_ADDRESS=…):": (
        "Weitere Adressen dieses Laptops (Auswahl mit HALL_ADDRESS=…):"
    ),
    (
        "No network found: phones cannot reach this laptop. Connect it to the hall's Wi-Fi and "
        "start again."
    ): (
        "Kein Netzwerk gefunden: Handys erreichen diesen Laptop nicht. Verbinden Sie ihn mit "
        "dem WLAN der Halle und starten Sie neu."
    ),
    "Database:": "Datenbank:",
    "Backups (after each closed round):": "Sicherungen (nach jeder abgeschlossenen Runde):",
    "Stop with Ctrl+C.": "Beenden mit Strg+C.",
    "Stopped. The tournament is in the database; start again any time.": (
        "Beendet. Das Turnier ist in der Datenbank gespeichert; jederzeit wieder starten."
    ),
    # --- projector view ---
    "Projector": "Leinwand",
    "offline": "offline",
    "Time left": "Restzeit",
    "Seating": "Sitzplan",
    "Tables": "Tische",
    "done": "fertig",
    "Page %(page)s/%(pages)s": "Seite %(page)s/%(pages)s",
    "ends at %(time)s": "Ende um %(time)s",
    "Tables of five: %(left)s left, ends at %(time)s": (
        "5er-Tische: noch %(left)s, Ende um %(time)s"
    ),
    "Time is up: finish the game in progress.": (
        "Die Spielzeit ist abgelaufen: das laufende Spiel wird zu Ende gespielt."
    ),
    "+%(minutes)s min": "+%(minutes)s Min.",
    "%(done)s of %(total)s tables done · %(playing)s playing · %(waiting)s not started": (
        "%(done)s von %(total)s Tischen fertig · %(playing)s spielen · "
        "%(waiting)s noch nicht begonnen"
    ),
    "The seating appears here as soon as a round is released.": (
        "Der Sitzplan erscheint hier, sobald eine Runde freigegeben ist."
    ),
    "projector: seconds per page": "Leinwand: Sekunden pro Seite",
    "The projector view shows the clock, the seating, the tables and the standings in turn; "
    "each page stays this many seconds (5 to 120).": (
        "Die Leinwand zeigt abwechselnd Restzeit, Sitzplan, Tische und Rangliste; jede Seite "
        "bleibt so viele Sekunden stehen (5 bis 120)."
    ),
    "A full-screen page for the hall's projector or TV: the clock of the running round, the "
    "seating by name, which tables are done and the standings, in turn and up to date "
    "without reloading.": (
        "Eine Vollbildseite für Beamer oder Fernseher im Saal: die Restzeit der laufenden "
        "Runde, der Sitzplan nach Namen, welche Tische fertig sind, und die Rangliste, "
        "abwechselnd und immer aktuell, ohne neu zu laden."
    ),
    "Secret link (works without login, also while the tournament is not public)": (
        "Geheimer Link (funktioniert ohne Anmeldung, auch solange das Turnier nicht öffentlich ist)"
    ),
    "Open full screen": "Vollbild öffnen",
    "On the computer at the projector: open the link and press F11 for full screen (Esc "
    "leaves it).": (
        "Am Rechner des Beamers: den Link öffnen und F11 für Vollbild drücken (Esc beendet es)."
    ),
    "Seconds per page: %(seconds)s.": "Sekunden pro Seite: %(seconds)s.",
    "Change in the settings": "In den Einstellungen ändern",
    "The tournament is public, so the projector view is also here:": (
        "Das Turnier ist öffentlich, die Leinwand gibt es daher auch hier:"
    ),
    "A new link makes the old one stop working, e.g. when it reached the wrong people.": (
        "Ein neuer Link macht den alten ungültig, etwa wenn er an die Falschen geraten ist."
    ),
    "Make a new link": "Neuen Link erzeugen",
    "New projector link made; the old one no longer works.": (
        "Neuer Leinwand-Link erzeugt; der alte funktioniert nicht mehr."
    ),
    # --- security: draw ---
    (
        "%(players)s players in %(rounds)s rounds are too many to draw at once (at most "
        "%(limit)s seats): draw this field round by round."
    ): (
        "%(players)s Spieler in %(rounds)s Runden sind zu viele, um sie auf einmal auszulosen "
        "(höchstens %(limit)s Plätze): Lösen Sie dieses Feld Runde für Runde aus."
    ),
    "A tournament can have at most %(limit)s rounds; this one plans %(count)s. Reduce the "
    "planned rounds in the tournament's settings.": (
        "Ein Turnier kann höchstens %(limit)s Runden haben; dieses plant %(count)s. Bitte "
        "die geplanten Runden in den Turniereinstellungen verringern."
    ),
    "At most %(limit)s players can be drawn; %(count)s have checked in. Split the field "
    "into several tournaments.": (
        "Höchstens %(limit)s Spieler können ausgelost werden; eingecheckt sind %(count)s. "
        "Teilen Sie das Feld auf mehrere Turniere auf."
    ),
    "Something changed while the seats were drawn (the checked-in players, the rounds or "
    "another draw). Nothing was saved: please draw again.": (
        "Inzwischen hat sich etwas geändert (eingecheckte Spieler, Runden oder eine andere "
        "Auslosung). Es wurde nichts gespeichert – bitte erneut auslosen."
    ),
    # --- security: logins and operations ---
    "Not found. With DEBUG on, this site answers this computer only.": (
        "Nicht gefunden. Mit eingeschaltetem DEBUG antwortet die Seite nur diesem Computer."
    ),
    # --- security: uploads, preview, cache, confirmed sheets ---
    "The file holds more than %(limit)s million characters of text.": (
        "Die Datei enthält mehr als %(limit)s Millionen Zeichen Text."
    ),
    (
        "The file has more than %(max)s lines of players; at most %(max)s can be imported at "
        "a time. Please split the list. Nothing was imported."
    ): (
        "Die Datei hat mehr als %(max)s Zeilen mit Spielern; höchstens %(max)s können auf "
        "einmal importiert werden. Bitte die Liste aufteilen. Es wurde nichts importiert."
    ),
    "The Excel file unpacks to more than %(limit)s MB.": (
        "Die Excel-Datei ergibt entpackt mehr als %(limit)s MB."
    ),
    "The Excel file holds more data than a list of %(max)s lines.": (
        "Die Excel-Datei enthält mehr Daten als eine Liste mit %(max)s Zeilen."
    ),
    "DDV member number %(number)s belongs to a player with another name": (
        "DDV-Mitgliedsnummer %(number)s gehört zu einem Spieler mit anderem Namen"
    ),
    "DDV member number %(number)s belongs to a player with another name.": (
        "DDV-Mitgliedsnummer %(number)s gehört zu einem Spieler mit anderem Namen."
    ),
    "known player (will be linked)": "bekannter Spieler (wird verknüpft)",
    "changed after confirmation": "nach der Bestätigung geändert",
    "changed after confirmation: to be confirmed again": (
        "nach der Bestätigung geändert: erneut zu bestätigen"
    ),
    "changed after confirmation: confirm again": (
        "nach der Bestätigung geändert: bitte erneut bestätigen"
    ),
    # --- security: confirmation codes ---
    (
        "This code does not belong to start number %(number)s. Enter the code from your own "
        "player card; nothing was saved."
    ): (
        "Dieser Code gehört nicht zu Startnummer %(number)s. Geben Sie den Code von Ihrer "
        "eigenen Spielerkarte ein; es wurde nichts gespeichert."
    ),
    "confirmation code": "Bestätigungscode",
    "your confirmation code": "Ihr Bestätigungscode",
    "Code": "Code",
    "The confirmation code has %(length)s digits.": "Der Bestätigungscode hat %(length)s Ziffern.",
    "Enter your start number and the confirmation code from your player card.": (
        "Bitte Ihre Startnummer und den Bestätigungscode von Ihrer Spielerkarte eingeben."
    ),
    (
        "Too many wrong codes at this table. Please call the tournament office: it can confirm "
        "the sheet. Or try again in %(minutes)s min."
    ): (
        "Zu viele falsche Codes an diesem Tisch. Bitte das Turnierbüro rufen: es kann die Liste "
        "bestätigen. Oder in %(minutes)s Min. erneut versuchen."
    ),
    (
        "Submitted. Another player of the table confirms the sheet with their start number and "
        "the code from their player card."
    ): (
        "Abgegeben. Ein anderer Spieler des Tisches bestätigt die Liste mit seiner Startnummer "
        "und dem Code von seiner Spielerkarte."
    ),
    (
        "The five digits on your player card. Your code is personal: without your card, ask "
        "the tournament office."
    ): (
        "Die fünf Ziffern auf Ihrer Spielerkarte. Der Code ist persönlich: ohne Karte bitte "
        "beim Turnierbüro fragen."
    ),
    "Player cards": "Spielerkarten",
    "Player cards (PDF)": "Spielerkarten (PDF)",
    "confirmation code, for a player who lost their card": (
        "Bestätigungscode, für einen Spieler ohne Karte"
    ),
    "No active players.": "Keine aktiven Spieler.",
    # --- offline entry on the keeper's phone ---
    (
        "No connection. Games you save stay on this phone and are sent as soon as the "
        "connection is back."
    ): (
        "Keine Verbindung. Gespeicherte Spiele bleiben auf diesem Telefon und werden gesendet, "
        "sobald die Verbindung zurück ist."
    ),
    (
        "No connection — 1 game not sent yet. It is sent automatically as soon as the "
        "connection is back."
    ): (
        "Keine Verbindung — 1 Spiel noch nicht gesendet. Es wird automatisch gesendet, sobald "
        "die Verbindung zurück ist."
    ),
    (
        "No connection — {count} games not sent yet. They are sent automatically as soon as "
        "the connection is back."
    ): (
        "Keine Verbindung — {count} Spiele noch nicht gesendet. Sie werden automatisch "
        "gesendet, sobald die Verbindung zurück ist."
    ),
    "Sending … ({count} not sent yet)": "Sende … ({count} noch nicht gesendet)",
    "Everything sent.": "Alles gesendet.",
    "Game {number} was not saved: {message}": "Spiel {number} wurde nicht gespeichert: {message}",
    "Game {number} was not saved: see the message below.": (
        "Spiel {number} wurde nicht gespeichert: siehe die Meldung unten."
    ),
    "Correct it in the form and save it again, or discard it.": (
        "Korrigieren Sie es im Formular und speichern Sie es erneut, oder verwerfen Sie es."
    ),
    "Waiting behind it: {count}": "Dahinter warten: {count}",
    "The server refused it (error {status}). Ask the tournament office.": (
        "Der Server hat es abgelehnt (Fehler {status}). Bitte bei der Turnierleitung melden."
    ),
    "No connection — please try again.": "Keine Verbindung — bitte erneut versuchen.",
    "Send again": "Erneut senden",
    "Show": "Anzeigen",
    "Discard game {number}": "Spiel {number} verwerfen",
    "Discard game {number} for good? It is not on the sheet.": (
        "Spiel {number} endgültig verwerfen? Es steht nicht auf der Liste."
    ),
    "Game {number}": "Spiel {number}",
    "Change game {number}": "Spiel {number} ändern",
    "winners {positions}": "Gewinner {positions}",
    "soloist {position}": "Solist {position}",
    "value {value}": "Wert {value}",
    "not sent yet": "noch nicht gesendet",
    "held back": "angehalten",
    "Submit once every game is sent: {count} not sent yet.": (
        "Abgeben geht erst, wenn alle Spiele gesendet sind: {count} noch nicht gesendet."
    ),
    "This phone cannot store unsent games — please keep this page open.": (
        "Dieses Telefon kann ungesendete Spiele nicht speichern — Seite bitte offen lassen."
    ),
    # --- issue 15: director ---
    "Letters, digits and hyphens; used in the address of the public pages. Left empty, it is made "
    "from the name.": (
        "Buchstaben, Ziffern und Bindestriche; Teil der Adresse der öffentlichen Seiten. Leer "
        "gelassen, wird er aus dem Namen gebildet."
    ),
    "The short name “%(slug)s” is already used by another tournament; choose another, e.g. "
    "“%(free)s”.": (
        "Der Kurzname „%(slug)s“ wird schon von einem anderen Turnier verwendet; wählen Sie einen "
        "anderen, z. B. „%(free)s“."
    ),
    "Custom profile": "Eigenes Regelwerk",
    "Only for the rule profile “Custom”: start from a shipped profile and change what your "
    "tournament does differently.": (
        "Nur für das Regelwerk „Eigenes“: Sie gehen von einem mitgelieferten Regelwerk aus und "
        "ändern, was Ihr Turnier anders macht."
    ),
    "The parameters below start from this profile; change what differs.": (
        "Die Parameter unten gehen von diesem Regelwerk aus; ändern Sie, was abweicht."
    ),
    "cards in the pack": "Karten im Spiel",
    "48 with the nines, 40 without.": "48 mit den Neunen, 40 ohne.",
    "games per round at a 4-table": "Spiele je Runde am Vierertisch",
    "games per round at a 5-table": "Spiele je Runde am Fünfertisch",
    "playing time at a 4-table (minutes)": "Spielzeit am Vierertisch (Minuten)",
    "playing time at a 5-table (minutes)": "Spielzeit am Fünfertisch (Minuten)",
    "Pflichtsoli per player and round": "Pflichtsoli je Spieler und Runde",
    "the dealer deals again after a Pflichtsolo": (
        "nach einem Pflichtsolo gibt derselbe Geber noch einmal"
    ),
    "The game after a Pflichtsolo is dealt by the same player.": (
        "Das Spiel nach einem Pflichtsolo gibt derselbe Spieler."
    ),
    "the dealer deals again after a vorgeführtes Pflichtsolo": (
        "nach einem vorgeführten Pflichtsolo gibt derselbe Geber noch einmal"
    ),
    "a Lustsolo only after the player's own Pflichtsolo": (
        "Lustsolo erst nach dem eigenen Pflichtsolo"
    ),
    "scoring": "Wertung",
    "plus and minus (the row adds up to zero)": "Plus und Minus (die Zeile ergibt null)",
    "plus points (only the winners score)": "Pluspunkte (nur die Gewinner schreiben)",
    "even/odd rule at 4-tables": "Gerade-/Ungerade-Regel am Vierertisch",
    "The values of a row are all even or all odd; the sheet check warns otherwise.": (
        "Die Werte einer Zeile sind alle gerade oder alle ungerade; sonst meldet die "
        "Listenprüfung die Zeile."
    ),
    "sanctions for unsportsmanlike conduct": "Sanktionen bei unsportlichem Verhalten",
    "maximum point deduction": "höchster Punktabzug",
    "0 when the profile has no point deduction.": "0, wenn das Regelwerk keinen Punktabzug kennt.",
    "extra penalty for a violation in an already decided game": (
        "Zusatzstrafe bei einem Verstoß in einem bereits entschiedenen Spiel"
    ),
    "a dealer who sits out passes the deal to play a vorgeführtes Pflichtsolo": (
        "ein aussetzender Geber gibt das Geben ab, um sein vorgeführtes Pflichtsolo zu spielen"
    ),
    "At a 5-table the dealer sits out; if he alone still owes his Pflichtsolo when it must be "
    "vorgeführt, his left neighbour deals.": (
        "Am Fünfertisch setzt der Geber aus; schuldet nur noch er sein Pflichtsolo, wenn "
        "vorgeführt werden muss, gibt sein linker Nachbar."
    ),
    "warn above this value of a normal game": "Rückfrage über diesem Wert eines Normalspiels",
    "warn above this value of a solo": "Rückfrage über diesem Wert eines Solos",
    "A higher value is probably a typo; the sheet check asks about it.": (
        "Ein höherer Wert ist vermutlich ein Tippfehler; die Listenprüfung fragt nach."
    ),
    "Date": "Datum",
    "Rule profile": "Regelwerk",
    "Status": "Status",
    "Public": "Öffentlich",
    "penalty no.": "Strafe Nr.",
    "value": "Wert",
    "referee's initials": "Kürzel Schiedsrichter",
    "vorgeführt": "vorgeführt",
    "Value: the game's value. A penalty goes on a line of its own below the games, with the "
    "referee's initials.": (
        "Wert: der Spielwert. Eine Strafe kommt in eine eigene Zeile unter den Spielen, mit dem "
        "Kürzel des Schiedsrichters."
    ),
    # --- issue 15: english ---
    "Game value calculator": "Spielwert-Rechner",
    "Score sheet": "Spielliste",
    "Score sheets": "Spiellisten",
    "When the appeals committee overrules the decision. The penalty stays on record but no longer "
    "counts.": (
        "Wenn das Schiedsgericht die Entscheidung aufhebt. Die Strafe bleibt dokumentiert, zählt "
        "aber nicht mehr."
    ),
    "negligible (no points)": "unerheblich (keine Punkte)",
    "minor": "geringfügig",
    "serious": "schwerwiegend",
    "Hochzeit that became a solo": "Hochzeit als Solo",
    "DDV tournament rules 2026": "DDV Turnier-Spielregeln 2026",
    "No vorgeführtes Pflichtsolo was due in this game.": (
        "In diesem Spiel war kein Pflichtsolo vorzuführen."
    ),
    "Re's card points must be between 0 and 240, not %(value)s.": (
        "Die Augen der Re-Partei müssen zwischen 0 und 240 liegen, nicht %(value)s."
    ),
    "A party without a trick has 0 card points (Re has %(re_eyes)s).": (
        "Eine Partei ohne Stich hat 0 Augen (Re hat %(re_eyes)s)."
    ),
    "Extra points are whole numbers from 0 to 12 per party.": (
        "Sonderpunkte sind ganze Zahlen von 0 bis 12 je Partei."
    ),
    "There are no extra points in a solo.": "Im Solo gibt es keine Sonderpunkte.",
    "This penalty names a game that is not on the score sheet.": (
        "Diese Strafe nennt ein Spiel, das nicht auf der Liste steht."
    ),
    "(Penalty row: it no longer fits the game as the score sheet has it now. A referee revokes it "
    "and enters the decision again.)": (
        "(Strafzeile: sie passt nicht mehr zum Spiel, wie es jetzt auf der Liste steht. Ein "
        "Schiedsrichter hebt sie auf und trägt die Entscheidung neu ein.)"
    ),
    "“%(note)s”": "„%(note)s“",
    "back to the score sheet": "zurück zur Spielliste",
    "one card per active player with the personal code for confirming a score sheet: hand them "
    "out at check-in": (
        "eine Karte je aktivem Spieler mit dem persönlichen Code zum Bestätigen einer Spielliste: "
        "beim Einchecken aushändigen"
    ),
    "Score sheets: board of the round": "Spiellisten: Übersicht der Runde",
    "After the release the seats are fixed and players see them on “Where do I sit?”.": (
        "Nach der Freigabe stehen die Plätze fest und die Spieler sehen sie unter „Wo sitze ich?“."
    ),
    "Extra time": "Nachspielzeit",
    "To confirm a score sheet: start number + code. Personal: do not pass it on.": (
        "Zum Bestätigen einer Spielliste: Startnummer + Code. Persönlich: nicht weitergeben."
    ),
    "Kind: N normal game, P Pflichtsolo, V vorgeführtes Pflichtsolo, L Lustsolo, H Hochzeit that "
    "became a solo, S stille Hochzeit. Solo: position of the soloist.": (
        "Art: N Normalspiel, P Pflichtsolo, V vorgeführtes Pflichtsolo, L Lustsolo, H Hochzeit "
        "als Solo, S stille Hochzeit. Solo: Position des Solisten."
    ),
    "Card points of the Re party": "Augen der Re-Partei",
    "Absage of the Re party": "Absage von Re",
    "Absage of the Kontra party": "Absage von Kontra",
    "Extra points of the Re party": "Sonderpunkte Re",
    "Extra points of the Kontra party": "Sonderpunkte Kontra",
    "Doppelkopf, Fuchs caught, Karlchen (not “gegen die Alten”)": (
        "Doppelkopf, Fuchs gefangen, Karlchen (nicht „gegen die Alten“)"
    ),
    "Normal game (incl. Hochzeit with partner)": "Normalspiel (auch Hochzeit mit Partner)",
    "First line with column names: first name, last name (or name), club, DDV number, team, start "
    "number. Comma or semicolon, UTF-8 or Windows-1252.": (
        "Erste Zeile mit Spaltennamen: Vorname, Nachname (oder Name), Verein, DDV-Nr., Team, "
        "Startnummer. Komma oder Semikolon, UTF-8 oder Windows-1252."
    ),
    "The first line must name the columns, at least “last name” (or “name”); also understood: "
    "first name, club, DDV number, team, start number.": (
        "Die erste Zeile muss die Spalten benennen, mindestens „Nachname“ (oder „Name“); außerdem "
        "verstanden: Vorname, Verein, DDV-Nr., Team, Startnummer."
    ),
    "When": "Wann",
    "Round": "Runde",
    "Table": "Tisch",
    "Game": "Spiel",
    "Offender": "Verursacher",
    "Category": "Kategorie",
    "Points": "Punkte",
    "Reason": "Begründung",
    "State": "Stand",
    "Games": "Spiele",
    "Who": "Wer",
    "Role": "Rolle",
    "What": "Was",
    "Name": "Name",
    "Game situation": "Spielsituation",
    "Entered by": "Eingetragen von",
    "Signed": "Unterschrieben",
    "Revoked": "Aufgehoben",
    "Remove": "Entfernen",
    "Draw seed": "Auslosungs-Seed",
    "Findings": "Befunde",
    "Repeat encounters": "Wiederholte Begegnungen",
    "Lower bound": "Untere Schranke",
    "Position balance": "Positionsausgleich",
    "Club conflicts": "Vereinskonflikte",
    "Time taken": "Rechenzeit",
    "Reason for the change": "Grund der Änderung",
    "Before": "Vorher",
    "After": "Nachher",
    "Who / reason": "Wer / Grund",
    "Start number": "Startnummer",
    "Close": "Schließen",
    "Stored (by somebody else)": "Gespeichert (von jemand anderem)",
    "Yours (not saved)": "Ihre Eingabe (nicht gespeichert)",
    "Your start number": "Ihre Startnummer",
    "Your confirmation code": "Ihr Bestätigungscode",
    "What is it about? (optional)": "Worum geht es? (freiwillig)",
    "Player": "Spieler",
    "Warning": "Verwarnung",
    "Point deduction": "Punktabzug",
    "Disqualification": "Disqualifikation",
    "Winners and value": "Gewinner und Spielwert",
    "Type the numbers": "Zahlen eintippen",
    "Normal game": "Normalspiel",
    "Won": "gewonnen",
    "Lost": "verloren",
    # --- issue 15: exports ---
    "Not started": "Nicht angetreten",
    "Registered, but never seated at a table: no rank.": (
        "Angemeldet, aber an keinem Tisch gesessen: ohne Platzierung."
    ),
    "Penalties at this table": "Strafen an diesem Tisch",
    "counts": "zählt",
    "does not count": "zählt nicht",
    "No penalties at this table.": "Keine Strafen an diesem Tisch.",
    "Kind": "Art",
    "Soloist": "Solist",
    # --- issue 15: keeper ---
    "Game %(number)s saved, but: %(problems)s": "Spiel %(number)s gespeichert, aber: %(problems)s",
    "All %(nominal)s games are entered, but a Pflichtsolo is missing:": (
        "Alle %(nominal)s Spiele sind eingetragen, aber es fehlt ein Pflichtsolo:"
    ),
    "Game %(number)s had to be a vorgeführtes Pflichtsolo. Do not enter another game: a round has "
    "no more. If game %(number)s was entered wrongly, correct it; if it was really played that "
    "way, call a referee.": (
        "Spiel %(number)s hätte ein vorgeführtes Pflichtsolo sein müssen. Bitte kein weiteres "
        "Spiel eintragen: Eine Runde hat nicht mehr Spiele. Ist Spiel %(number)s falsch "
        "eingetragen, bitte korrigieren; wurde es wirklich so gespielt, bitte einen "
        "Schiedsrichter rufen."
    ),
    "Do not enter another game: a round has no more. Correct the wrongly entered game, or call a "
    "referee.": (
        "Bitte kein weiteres Spiel eintragen: Eine Runde hat nicht mehr Spiele. Bitte das falsch "
        "eingetragene Spiel korrigieren oder einen Schiedsrichter rufen."
    ),
    "Game %(number)s had to be a vorgeführtes Pflichtsolo, and a round has no more games: correct "
    "the game that was entered wrongly, or decide as referee.": (
        "Spiel %(number)s hätte ein vorgeführtes Pflichtsolo sein müssen, und eine Runde hat "
        "nicht mehr Spiele: Bitte das falsch eingetragene Spiel korrigieren oder als "
        "Schiedsrichter entscheiden."
    ),
    "The sheet has %(count)s games, a round only %(nominal)s: remove the games too many.": (
        "Die Liste hat %(count)s Spiele, eine Runde nur %(nominal)s: Bitte die überzähligen "
        "Spiele entfernen."
    ),
    "This round is closed.": "Diese Runde ist abgeschlossen.",
    "This is the table's final sheet. Changes only through the tournament office.": (
        "Das ist die endgültige Spielliste des Tisches. Änderungen nur über das Turnierbüro."
    ),
    "Nothing was saved: this round is closed. Show the tournament office what you wanted to "
    "enter.": (
        "Nichts wurde gespeichert: Diese Runde ist abgeschlossen. Bitte zeigen Sie dem "
        "Turnierbüro, was Sie eintragen wollten."
    ),
    "This round is closed: 1 game on this phone did not reach the list. It is shown below, marked "
    "“not on the list”. Show it to the tournament office.": (
        "Diese Runde ist abgeschlossen: 1 Spiel auf diesem Telefon ist nicht in der Liste "
        "angekommen. Es steht unten, markiert mit „nicht in der Liste“. Zeigen Sie es der "
        "Turnierleitung im Turnierbüro."
    ),
    "This round is closed: {count} games on this phone did not reach the list. They are shown "
    "below, marked “not on the list”. Show them to the tournament office.": (
        "Diese Runde ist abgeschlossen: {count} Spiele auf diesem Telefon sind nicht in der Liste "
        "angekommen. Sie stehen unten, markiert mit „nicht in der Liste“. Zeigen Sie sie der "
        "Turnierleitung im Turnierbüro."
    ),
    "not on the list": "nicht in der Liste",
    "%(name)s (start no. %(number)s)": "%(name)s (Startnr. %(number)s)",
    "Submitted by %(who)s at %(time)s": "Abgegeben von %(who)s um %(time)s",
    "confirmed at %(time)s": "bestätigt um %(time)s",
    "Use this row in the game form": "Übernehmen (ins Spielformular)",
    "Tick the facts of the game below: the row to write appears here.": (
        "Unten die Umstände des Spiels ankreuzen: Hier erscheint die Zeile für die Liste."
    ),
    "Tick the facts of the game; the row to write down appears above them.": (
        "Die Umstände des Spiels ankreuzen; die Zeile für die Liste erscheint darüber."
    ),
    # --- issue 15: phone ---
    "Club": "Verein",
    "Team": "Team",
    "Checked in": "Eingecheckt",
    "Total": "Summe",
    "Members": "Mitglieder",
    "Position": "Position",
    "Name or start number": "Name oder Startnummer",
    "Part of the name is enough.": "Ein Teil des Namens genügt.",
    "Not seated in any released round: please ask the tournament office.": (
        "In keiner freigegebenen Runde eingeteilt: bitte bei der Turnierleitung melden."
    ),
    "Please type part of a name or a start number.": (
        "Bitte einen Teil des Namens oder eine Startnummer eingeben."
    ),
    "Round %(round)s: table %(table)s, position %(position)s": (
        "Runde %(round)s: Tisch %(table)s, Position %(position)s"
    ),
    # --- issue 15: players ---
    "Edit": "Bearbeiten",
    "Reason (for the history)": "Grund (für den Änderungsverlauf)",
    "Fixed since the first round was drawn.": "Fest, seit die erste Runde ausgelost ist.",
    "entry corrected": "Anmeldung korrigiert",
    "Start number %(number)s or DDV member number %(ddv)s was taken meanwhile.": (
        "Startnummer %(number)s oder DDV-Mitgliedsnummer %(ddv)s wurde inzwischen vergeben."
    ),
    "%(name)s also plays in a tournament you do not direct: name, club and DDV member number can "
    "only be corrected by an administrator.": (
        "%(name)s spielt auch in einem Turnier, das Sie nicht leiten: Name, Verein und "
        "DDV-Mitgliedsnummer kann nur ein Administrator korrigieren."
    ),
    "DDV member number %(number)s belongs to another player in the player database. If it is the "
    "same person, merge the two players.": (
        "Die DDV-Mitgliedsnummer %(number)s gehört einem anderen Spieler der Spielerdatenbank. "
        "Ist es dieselbe Person, führen Sie die beiden Spieler zusammen."
    ),
    "The start number cannot change any more: the first round has been drawn.": (
        "Die Startnummer kann nicht mehr geändert werden: Die erste Runde ist ausgelost."
    ),
    "Entry %(number)s corrected: %(name)s.": "Anmeldung %(number)s korrigiert: %(name)s.",
    "Correct entry %(number)s": "Anmeldung %(number)s korrigieren",
    "Correct entry %(number)s (%(name)s)": "Anmeldung %(number)s korrigieren (%(name)s)",
    "Name, club and DDV member number are those of the player in the player database: the "
    "correction applies to every tournament this player played.": (
        "Name, Verein und DDV-Mitgliedsnummer gehören zum Spieler in der Spielerdatenbank: Die "
        "Korrektur gilt für jedes Turnier, das dieser Spieler gespielt hat."
    ),
    "after the change": "nach der Änderung",
    "No changes yet.": "Noch keine Änderungen.",
    "start number %(number)s": "Startnummer %(number)s",
    "Check-in": "Check-in",
    "Check in by start number": "Einchecken per Startnummer",
    "Type a start number.": "Bitte eine Startnummer eingeben.",
    "Type a start number (digits only).": "Bitte eine Startnummer eingeben (nur Ziffern).",
    "Type a start number and press Enter; the field is ready for the next one.": (
        "Startnummer eingeben und Enter drücken; das Feld ist gleich für die nächste bereit."
    ),
    "Undo check-in of %(name)s": "Check-in von %(name)s zurücknehmen",
    "All present…": "Alle anwesend …",
    "A wrong check-in can be undone in the player's row.": (
        "Ein falscher Check-in lässt sich in der Zeile des Spielers zurücknehmen."
    ),
    "All active players were already checked in.": "Alle aktiven Spieler waren schon eingecheckt.",
    "all present": "alle anwesend",
    "Not sent: no connection to the server. Please type the number again.": (
        "Nicht gesendet: keine Verbindung zum Server. Bitte die Nummer noch einmal eingeben."
    ),
    "Nobody has start number %(number)s.": "Die Startnummer %(number)s hat niemand.",
    "%(name)s (%(number)s) is withdrawn: re-admit them first.": (
        "%(name)s (%(number)s) ist zurückgezogen: bitte erst wieder zulassen."
    ),
    "%(name)s (%(number)s) is disqualified.": "%(name)s (%(number)s) ist disqualifiziert.",
    "%(name)s (%(number)s) is already checked in.": (
        "%(name)s (%(number)s) ist bereits eingecheckt."
    ),
    "%(name)s (%(number)s) checked in.": "%(name)s (%(number)s) eingecheckt.",
    "Duplicates in the player database? Merge players": (
        "Doppelte Einträge in der Spielerdatenbank? Spieler zusammenführen"
    ),
    "Merge players": "Spieler zusammenführen",
    "merge players": "Spieler zusammenführen",
    "Merge two players": "Zwei Spieler zusammenführen",
    "Merge": "Zusammenführen",
    "Keep this player": "Diesen Spieler behalten",
    "Merge away this player (its entries move over, then it is deleted)": (
        "Diesen Spieler auflösen (seine Anmeldungen gehen über, dann wird er gelöscht)"
    ),
    "%(name)s is already registered for this tournament with start number %(number)s. To correct "
    "name, club or team, use “Edit” in that row.": (
        "%(name)s ist für dieses Turnier bereits mit Startnummer %(number)s angemeldet. Name, "
        "Verein oder Team korrigieren Sie mit „Bearbeiten“ in dieser Zeile."
    ),
    "DDV %(number)s": "DDV %(number)s",
    "Please say why the two players are one person.": (
        "Bitte angeben, warum die beiden Spieler dieselbe Person sind."
    ),
    "You may only merge players who play only in tournaments you direct; ask an administrator.": (
        "Sie können nur Spieler zusammenführen, die ausschließlich in Ihren Turnieren spielen; "
        "bitte wenden Sie sich an einen Administrator."
    ),
    "The two players have different DDV member numbers (%(keep)s, %(drop)s): correct one of them "
    "first if they really are one person.": (
        "Die beiden Spieler haben verschiedene DDV-Mitgliedsnummern (%(keep)s, %(drop)s): Sind "
        "sie wirklich dieselbe Person, bitte zuerst eine davon korrigieren."
    ),
    "merged with player %(id)s (%(name)s): %(reason)s": (
        "zusammengeführt mit Spieler %(id)s (%(name)s): %(reason)s"
    ),
    "merged into player %(id)s (%(name)s): %(reason)s": (
        "zusammengeführt in Spieler %(id)s (%(name)s): %(reason)s"
    ),
    "%(drop)s merged into %(keep)s.": "%(drop)s in %(keep)s zusammengeführt.",
    "When one person is in the player database twice (e.g. “Schäfer” and “Schaefer”), merge the "
    "two: the entries of the second player move to the first, the second is deleted, and the "
    "history records who merged whom and why.": (
        "Steht eine Person zweimal in der Spielerdatenbank (z. B. „Schäfer“ und „Schaefer“), "
        "führen Sie die beiden zusammen: Die Anmeldungen des zweiten Spielers gehen auf den "
        "ersten über, der zweite wird gelöscht, und der Änderungsverlauf hält fest, wer wen warum "
        "zusammengeführt hat."
    ),
    "You can merge players who play only in tournaments you direct; for others ask an "
    "administrator.": (
        "Sie können Spieler zusammenführen, die nur in Turnieren spielen, die Sie leiten; für "
        "andere wenden Sie sich an einen Administrator."
    ),
    "Possible duplicates": "Mögliche doppelte Einträge",
    "choose these two": "diese beiden wählen",
    "No players with the same name (however spelt) found.": (
        "Keine Spieler mit gleichem Namen (in welcher Schreibweise auch immer) gefunden."
    ),
    # --- issue 15: review fixes ---
    "%(name)s was registered for a tournament meanwhile: please merge again.": (
        "%(name)s wurde inzwischen für ein Turnier angemeldet: bitte erneut zusammenführen."
    ),
    "another tournament's change": "Änderung eines anderen Turniers",
    "%(name)s is already registered for this tournament with start number %(number)s. If "
    "they are one person, merge the two players.": (
        "%(name)s ist für dieses Turnier bereits mit Startnummer %(number)s angemeldet. Ist es "
        "dieselbe Person, führen Sie die beiden Spieler zusammen."
    ),
    "%(keep)s and %(drop)s both played in “%(tournament)s”; one person cannot have two "
    "results there, so they cannot be merged.": (
        "%(keep)s und %(drop)s haben beide in „%(tournament)s“ gespielt; eine Person kann dort "
        "nicht zwei Ergebnisse haben, daher ist kein Zusammenführen möglich."
    ),
    "removed: registered twice (merged into player %(id)s): %(reason)s": (
        "entfernt: doppelt angemeldet (zusammengeführt in Spieler %(id)s): %(reason)s"
    ),
}

DE_PLURAL = {
    "An unsigned penalty is waiting at table %(tables)s: a referee signs or revokes it first.": (
        "An Tisch %(tables)s wartet eine Strafe ohne Unterschrift: ein Schiedsrichter "
        "unterschreibt oder hebt sie zuerst auf.",
        "An den Tischen %(tables)s warten Strafen ohne Unterschrift: ein Schiedsrichter "
        "unterschreibt oder hebt sie zuerst auf.",
    ),
    "%(count)s warning": ("%(count)s Verwarnung", "%(count)s Verwarnungen"),
    "%(name)s has already been warned once in this tournament.": (
        "%(name)s wurde in diesem Turnier bereits einmal verwarnt.",
        "%(name)s wurde in diesem Turnier bereits %(counter)s-mal verwarnt.",
    ),
    "The sheet has %(counter)s game; a penalty in the game being played belongs to the next "
    "number.": (
        "Die Liste hat %(counter)s Spiel; eine Strafe im laufenden Spiel gehört zur nächsten "
        "Nummer.",
        "Die Liste hat %(counter)s Spiele; eine Strafe im laufenden Spiel gehört zur nächsten "
        "Nummer.",
    ),
    "%(counter)s game": ("%(counter)s Spiel", "%(counter)s Spiele"),
    "%(counter)s round counted": ("%(counter)s Runde gewertet", "%(counter)s Runden gewertet"),
    "%(counter)s game struck": ("%(counter)s Spiel gestrichen", "%(counter)s Spiele gestrichen"),
    "%(count)s row saved.": ("%(count)s Zeile gespeichert.", "%(count)s Zeilen gespeichert."),
    "%(counter)s error": ("%(counter)s Fehler", "%(counter)s Fehler"),
    "%(counter)s checked-in player will be drawn.": (
        "%(counter)s eingecheckter Spieler wird ausgelost.",
        "%(counter)s eingecheckte Spieler werden ausgelost.",
    ),
    "%(counter)s bad line": ("%(counter)s fehlerhafte Zeile", "%(counter)s fehlerhafte Zeilen"),
    "Register %(counter)s player": (
        "%(counter)s Spieler anmelden",
        "%(counter)s Spieler anmelden",
    ),
    # --- issue 15: keeper ---
    "All games are entered, but the list still has %(counter)s error (marked ⚠ below). Correct "
    "it, then submit the sheet.": (
        "Alle Spiele sind eingetragen, aber die Liste hat noch %(counter)s Fehler (unten mit ⚠ "
        "markiert). Bitte korrigieren, dann die Liste abgeben.",
        "Alle Spiele sind eingetragen, aber die Liste hat noch %(counter)s Fehler (unten mit ⚠ "
        "markiert). Bitte korrigieren, dann die Liste abgeben.",
    ),
    "but the sheet has %(errors)s error (marked ⚠ in the list).": (
        "aber die Liste hat %(errors)s Fehler (in der Liste mit ⚠ markiert).",
        "aber die Liste hat %(errors)s Fehler (in der Liste mit ⚠ markiert).",
    ),
    # --- issue 15: phone ---
    "%(counter)s more player found: type more of the name.": (
        "%(counter)s weiterer Spieler gefunden: bitte mehr vom Namen eingeben.",
        "%(counter)s weitere Spieler gefunden: bitte mehr vom Namen eingeben.",
    ),
    # --- issue 15: players ---
    "%(count)s player checked in.": (
        "%(count)s Spieler eingecheckt.",
        "%(count)s Spieler eingecheckt.",
    ),
    "Check in the %(counter)s active player not checked in yet": (
        "Den %(counter)s noch nicht eingecheckten aktiven Spieler einchecken",
        "Alle %(counter)s noch nicht eingecheckten aktiven Spieler einchecken",
    ),
}


def main() -> int:
    po = polib.pofile(str(PO))
    po.metadata_is_fuzzy = False
    po.metadata.update(
        {
            "Project-Id-Version": "Kreuzdame",
            "Language": "de",
            "Language-Team": "Kreuzdame",
            "Last-Translator": "Kreuzdame",
            "PO-Revision-Date": po.metadata.get("POT-Creation-Date", ""),
        }
    )
    po.header = "German translation of Kreuzdame."
    missing = []
    for entry in po:
        if "fuzzy" in entry.flags:
            # msgmerge guessed from a similar message: never trust a guess.
            entry.flags.remove("fuzzy")
            entry.msgstr = ""
            entry.previous_msgid = None
            entry.previous_msgid_plural = None
            entry.msgstr_plural = {0: "", 1: ""} if entry.msgid_plural else {}
        if entry.msgid_plural:
            if entry.msgid in DE_PLURAL:
                one, many = DE_PLURAL[entry.msgid]
                entry.msgstr_plural = {0: one, 1: many}
            else:
                missing.append(entry.msgid)
        elif entry.msgid in DE:
            entry.msgstr = DE[entry.msgid]
        elif not entry.msgstr:
            missing.append(entry.msgid)
    po.save()
    for msgid in missing:
        print(f"untranslated: {msgid!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
