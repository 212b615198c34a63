## Botin ylläpito: mitä jäsenet näkevät uudelleenkäynnistyksen aikana

ops-restarting = Botti käynnistyy uudelleen. Yritä hetken päästä uudelleen: mitään pelaamaasi ei ole menetetty.
