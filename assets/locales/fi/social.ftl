## Pelaajien kesken: /peru, /tasapeli, uusintaottelut

cmd-undo = peru
cmd-undo-desc = Pyydä vastustajaa sallimaan viimeisen siirtosi peruminen
cmd-undo-game = peli
cmd-undo-game-desc = Peli (jos pelaat täällä useampaa)
cmd-draw = tasapeli
cmd-draw-desc = Tarjoa vastustajalle tasapeliä (kahden pelaajan pelit)
cmd-draw-game = peli
cmd-draw-game-desc = Peli (jos pelaat täällä useampaa)

button-rematch = Uusintaottelu

offer-undo = **Peli #{ $id }** · { $player } pyytää perumaan siirrot { $moves }. { $answerers }: hyväksytkö?
offer-draw = **Peli #{ $id }** · { $player } tarjoaa tasapeliä. { $answerers }: hyväksytkö?
offer-posted = Tarjouksesi on kanavalla { $place }.
offer-undo-accepted = { $player } hyväksyi: siirrot { $moves } peruttiin.
offer-undo-computer = { $player } perui siirrot { $moves }; tietokone suostui.
offer-draw-accepted = { $player } hyväksyi tasapelin.
offer-waiting = { $player } hyväksyi; odotetaan pelaajaa { $waiting }.
offer-declined = { $player } kieltäytyi.
offer-withdrawn = { $player } peruutti tarjouksen.
offer-expired = Tämä tarjous vanheni: peli on edennyt.
offer-undo-lapsed = **Peli #{ $id }** · Pelaajan { $player } perumispyyntö vanheni: peli on edennyt.
offer-draw-lapsed = **Peli #{ $id }** · Pelaajan { $player } tasapelitarjous vanheni: peli on edennyt.
dm-offer-undo = { $player } pyytää perumaan siirron pelissä #{ $id }: { $place }
dm-offer-draw = { $player } tarjoaa tasapeliä pelissä #{ $id }: { $place }
rematch-lead = Uusintaottelu pelille #{ $id }, paikat vaihdettuina.
rematch-posted = Uusintaotteluehdotuksesi on kanavalla { $place }.
dm-rematch = { $player } ehdottaa uusintaottelua pelille #{ $id }: { $place }
dm-challenge = { $player } haastaa sinut peliin: { $place }

err-offer-no-such = Sitä tarjousta ei enää ole.
err-offer-not-yours = Vain tämän pelin muut pelaajat voivat vastata tähän tarjoukseen.
err-offer-nothing-to-undo = Sinulla ei ole vielä siirtoa, jonka voisi perua.
err-offer-draw-two-players = Tasapeliä voi tarjota vain kahden pelaajan pelissä.
err-offer-rematch-two-players = Uusintaottelut ovat vain kahden pelaajan peleille.
err-offer-computer = Tietokone ei sovi tasapelistä eikä pelaa uusintaotteluita. Pelataksesi sitä vastaan uudelleen käytä `/challenge`-komentoa ja valitse se vastustajaksi.
err-offer-not-computer = Vastustajasi on jäsen: `/undo` kysyy häneltä.
err-offer-own = Et voi hyväksyä omaa tarjoustasi: vastustaja päättää.
err-offer-expired = Tämä tarjous vanheni: peli on edennyt tarjouksen jälkeen.
err-offer-accepted = Tämä tarjous on jo hyväksytty.
err-offer-declined = Tämä tarjous on jo hylätty.
err-offer-withdrawn = Tämä tarjous on peruutettu.
err-offer-pending = Teit jo tämän tarjouksen; odota vastausta.
err-offer-game-not-over = Uusintaottelua voi ehdottaa, kun peli on päättynyt.
err-offer-rematch-pending = Tälle pelille on jo ehdotettu uusintaottelua.
err-offer-rematched = Tälle pelille on jo pelattu uusintaottelu.
err-offer-rematched-as = Tälle pelille on jo uusintaottelu: peli #{ $id }.
