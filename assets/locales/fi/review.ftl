## Moottorin analyysi (issue 14): /review ja Analysoi-painike.

cmd-review = analyysi
cmd-review-desc = Analysoi päättynyt peli moottorilla: voittomahdollisuuden kaavio ja käännekohdat
cmd-review-game = peli
cmd-review-game-desc = Mikä päättynyt peli (sen numero)
review-button = Analysoi
review-progress = Analysoidaan peliä #{ $id }… { $done }/{ $total }
review-title = **Pelin #{ $id } analyysi** (moottorin tekemä)
review-player = { $name }: tarkkuus { $accuracy } % · epätarkkuuksia { $inaccuracies } · virheitä { $mistakes } · pahoja virheitä { $blunders }
review-turning-points = Käännekohdat:
review-no-turning-points = Ei käännekohtia: kukaan ei menettänyt 20 prosenttiyksikköä voittomahdollisuudesta yhdellä siirrolla.
review-turning-point = Siirto { $number }, { $point } ({ $name }, { $class }), muutti värin { $colour } mahdollisuuden { $before } %:sta { $after } %:iin
review-better = ; { $point } olisi pitänyt sen { $before } %:ssa
review-class-mistake = virhe
review-class-blunder = paha virhe
review-method = -# Jokainen asema haettiin kiinteällä solmumäärällä; epätarkkuus, virhe ja paha virhe: 10, 20 ja 30 prosenttiyksikön menetys voittomahdollisuudessa.
review-chart-title = Mustan voittomahdollisuus
review-chart-move = Siirto
review-in-progress = Tätä peliä pelataan vielä: sen voi analysoida, kun se on päättynyt.
review-two-players = Vain kahden pelaajan pelejä voi analysoida: moottori arvioi vain kahta väriä.
review-busy = Tätä peliä analysoidaan juuri nyt: analyysi ilmestyy siihen viestiin.
review-failed = Pelin #{ $id } analyysia ei saatu valmiiksi. Pyydä sitä uudelleen komennolla /review.
