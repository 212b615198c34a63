## Tietokonevastustaja (/challenge opponent:@botti level:N)

cmd-challenge-level = taso
cmd-challenge-level-desc = Bottia vastaan: 1 (aloittelija) – 5 (2 s siirrolle), 6 kirjepeli (miettii pidempään); oletus 3
engine-started = { $player } pelaa tietokonetta vastaan (taso { $level }), peli #{ $id }.
engine-level-without-bot = Taso-valinta on botin kanssa pelattaviin peleihin: valitse vastustajaksi botti tai jätä taso pois.
engine-two-players-only = Tietokone pelaa vain kahden pelaajan pelejä: jätä pelaajamäärä pois (tai valitse 2).
engine-bad-level = Taso on luku 1–6.
