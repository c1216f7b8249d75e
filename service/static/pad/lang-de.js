// The pad's German catalog: each English text of the code (the key, exactly as written in
// t()/tn()/tx() or marked data-t in index.html) and its translation. A count gives a text per
// plural category (one and other). One entry per line, in JSON syntax, in the section of the
// file that uses it (tests/e2e/test_pad_catalogs.py reads this file).
export default {
  // --- index.html ---
  "Solo score pad": "Solo-Punkteblock",
  "Skip to the score": "Zum Spielstand springen",
  "Solo pad": "Solo-Block",
  "Online": "Online",
  "Loading…": "Wird geladen …",

  // --- i18n.js ---
  "Language": "Sprache",

  // --- app.js ---
  "Offline": "Offline",
  "sending {n} hand": {"one": "sende {n} Spiel", "other": "sende {n} Spiele"},
  "{n} hand kept on this phone": {"one": "{n} Spiel auf diesem Handy", "other": "{n} Spiele auf diesem Handy"},
  "{n} hand to check": {"one": "{n} Spiel zu prüfen", "other": "{n} Spiele zu prüfen"},
  "Hand {number} recorded.": "Spiel {number} eingetragen.",
  "The hands wait for the network": "Die Spiele warten auf das Netz",
  "Club {name} opened on this phone.": "Club {name} auf diesem Handy geöffnet.",
  "No connection: open the link again when online.": "Keine Verbindung: den Link online noch einmal öffnen.",
  "That club link did not work.": "Dieser Club-Link hat nicht funktioniert.",
  "No token for this table": "Kein Schlüssel für diesen Tisch",
  "Open the table with the link or QR code from a phone that has it.": "Den Tisch mit dem Link oder QR-Code von einem Handy öffnen, das ihn hat.",
  "Start": "Start",
  "Table not available": "Tisch nicht verfügbar",
  "No connection, and this phone has no copy of the table yet.": "Keine Verbindung, und dieses Handy hat noch keine Kopie des Tisches.",

  // --- api.js ---
  "No connection": "Keine Verbindung",
  "kind": "Art",
  "contract": "Spiel",
  "trump": "Trumpf",
  "declarer": "Spieler",
  "called": "gerufene Karte",
  "rank": "Rang",
  "suit": "Farbe",
  "partner": "Partner",
  "tricks": "Stiche",
  "tout after five": "Tout nach fünf",
  "matadores": "Matadore",
  "side": "Seite",
  "lower": "untere",
  "seat": "Platz",
  "forced": "gezwungen",
  "giver": "Abgeber",
  "stopped after five": "nach fünf aufgehört",
  "continued after five": "nach fünf weitergespielt",
  "tout announced": "Tout angesagt",
  "matadors together": "Matadore beisammen",
  "soloist": "Solist",
  "soloist points": "Punkte des Solisten",
  "defender points": "Punkte der Gegner",
  "last trick": "letzter Stich",
  "name": "Name",
  "variant": "Spielart",
  "seats": "Plätze",
  "first dealer": "erster Geber",
  "options": "Optionen",
  "error {number}": "Fehler {number}",
  "The server answered {status}": "Der Server antwortete mit {status}",

  // --- dom.js ---

  // --- model.js ---

  // --- outbox.js ---

  // --- qr.js ---
  "Text too long for a QR code": "Text zu lang für einen QR-Code",
  "QR code": "QR-Code",

  // --- start.js ---
  "No connection: try again when online.": "Keine Verbindung: online noch einmal versuchen.",
  "How the couleur changes": "Wie die Couleur wechselt",
  "Bête on a lost solo": "Bête bei verlorenem Solo",
  "Matadores count for": "Matadore zählen für",
  "Tout after five is worth": "Tout nach fünf zählt",
  "End after this many hands": "Ende nach so vielen Spielen",
  "End at this score": "Ende bei diesem Punktestand",
  "The pool at the end": "Die Kasse am Ende",
  "Starting pool": "Kasse zu Beginn",
  "Stake": "Einsatz",
  "Stamm": "Stamm",
  "Couleur": "Couleur",
  "Preferred suit": "Vorzugsfarbe",
  "Mediateur": "Mediateur",
  "Deck": "Kartenblatt",
  "Fixed": "Fest",
  "Trump of the first game won": "Trumpf des ersten gewonnenen Spiels",
  "Every lost solo": "Jedes verlorene Solo",
  "Only in couleur": "Nur in Couleur",
  "Either side": "Beide Seiten",
  "The declaring side only": "Nur die Seite des Spielers",
  "Double": "Doppelt",
  "Twice in suit, four in couleur": "Zweifach in Farbe, vierfach in Couleur",
  "Shared among the players": "Unter den Spielern geteilt",
  "Kept by the club": "Bleibt beim Club",
  "Clubs": "Kreuz",
  "Spades": "Pik",
  "Hearts": "Herz",
  "Diamonds": "Karo",
  "None": "Keine",
  "No limit": "Unbegrenzt",
  "Create a club": "Club gründen",
  "Club name": "Name des Clubs",
  "Create the club": "Club gründen",
  "Open a club with its admin token": "Club mit seinem Admin-Schlüssel öffnen",
  "Club id": "Club-ID",
  "Admin token": "Admin-Schlüssel",
  "Open the club": "Club öffnen",
  "Club": "Club",
  "The club’s admin token": "Der Admin-Schlüssel des Clubs",
  "This phone keeps the admin token. It is shown here only: keep it somewhere safe too. With it, another phone can open the club:": "Dieses Handy bewahrt den Admin-Schlüssel auf. Er wird nur hier gezeigt: auch anderswo sicher aufbewahren. Mit ihm kann ein anderes Handy den Club öffnen:",
  "QR code of the link that opens the club": "QR-Code des Links, der den Club öffnet",
  "Club: {name}": "Club: {name}",
  "Tables, standings and players": "Tische, Tabelle und Spieler",
  "New table": "Neuer Tisch",
  "Loading players…": "Spieler werden geladen …",
  "Table {date}": "Tisch {date}",
  "Name": "Name",
  "Add": "Hinzufügen",
  "{game} is played by {counts}. Tap the players in the order they sit (the deal passes to the left).": "{game} spielen {counts} Spieler. Die Spieler in der Sitzreihenfolge antippen (das Geben geht nach links weiter).",
  "Players": "Spieler",
  "seat {number}": "Platz {number}",
  "New player’s name": "Name des neuen Spielers",
  "First dealer": "Erster Geber",
  "yes": "ja",
  "no": "nein",
  "Default: {value}. {help}": "Standard: {value}. {help}",
  "Default: shared among the players when the table closes; or kept by the club for its next table.": "Standard: beim Schließen des Tisches unter den Spielern geteilt; oder vom Club für seinen nächsten Tisch behalten.",
  "Default: 0. A pool the club kept from an earlier table (only when the club keeps the pool).": "Standard: 0. Eine Kasse, die der Club von einem früheren Tisch behalten hat (nur wenn der Club die Kasse behält).",
  "Options (defaults shown)": "Optionen (Standardwerte gezeigt)",
  "Open the table": "Tisch eröffnen",
  "Pick {counts} players.": "{counts} Spieler wählen.",
  "Table": "Tisch",
  "Table name": "Name des Tisches",
  "Game": "Spiel",
  "Tables on this phone": "Tische auf diesem Handy",
  "{name} (closed)": "{name} (geschlossen)",
  "Keep the score of a Solo table: record each hand in a few taps, every phone at the table sees it.": "Den Spielstand eines Solo-Tisches führen: jedes Spiel mit wenigen Tipps eintragen, jedes Handy am Tisch sieht es.",
  "Another club": "Anderer Club",

  // --- hand.js ---

  // --- screens.js ---

  // --- table.js ---

  // --- league.js ---

  // --- league-admin.js ---

};
