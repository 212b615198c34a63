# Kellot: pikapelit, muistutukset, häviö ajalla, lomat (issue 7).

cmd-vacation = loma
cmd-vacation-desc = Jäljellä oleva lomasi tänä vuonna (kuluu itsestään, kun määräaika umpeutuu)
cmd-challenge-minutes_per_move = minuutteja_siirtoon
cmd-challenge-minutes_per_move-desc = Pikapeli: minuutteja siirtoa kohden, 1, 2, 5, 10, 30 tai 60 (päivien sijaan)
cmd-settings-minutes_per_move = minuutteja_siirtoon
cmd-settings-minutes_per_move-desc = Oletuksena pikapeli: minuutteja siirtoa kohden, 1, 2, 5, 10, 30 tai 60

clock-minutes-per-move = { $minutes ->
    [one] Yksi minuutti siirtoa kohden
   *[other] { $minutes } minuuttia siirtoa kohden
}
clock-err-bad-minutes = { $minutes } minuuttia siirtoa kohden ei käy: valitse 1, 2, 5, 10, 30 tai 60.
clock-err-days-and-minutes = Valitse joko päivät tai minuutit siirtoa kohden, ei molempia.

clock-reminder = ⏰ { $player }, siirtosi pelissä #{ $id } erääntyy { $when }.
clock-reminder-dm = ⏰ Siirtosi pelissä #{ $id } ({ $place }) erääntyy { $when }.
clock-vacation-started = 🏖️ { $player } ei siirtänyt ajoissa pelissä #{ $id }: hänen lomaansa kuluu tunti kerrallaan (tänä vuonna jäljellä { $left } tuntia). Uusi määräaika: { $when }.
clock-timeout = ⏰ Peli #{ $id } on päättynyt: pelaajalta { $player } loppui aika.
clock-timeout-dm = ⏰ Peli #{ $id } ({ $place }) on päättynyt: pelaajalta { $player } loppui aika.
clock-move-retired = ⏰ Pelaajalta { $player } loppui aika ja hän putoaa pois; muut jatkavat.

clock-vacation-left = 🏖️ Lomaa jäljellä vuonna { $year }: **{ $days ->
    [one] { $days } päivä
   *[other] { $days } päivää
} ja { $hours ->
    [one] { $hours } tunti
   *[other] { $hours } tuntia
}** / { $allowance ->
    [one] { $allowance } päivä
   *[other] { $allowance } päivää
}.
clock-vacation-used = Käytetty tänä vuonna: { $used } tuntia. Kun määräaika umpeutuu päivinä mitatussa pelissä, lomasta kuluu tunti ja määräaika siirtyy tunnilla; kun lomaa ei ole jäljellä, häviät ajalla. Pikapelit eivät käytä lomaa.
