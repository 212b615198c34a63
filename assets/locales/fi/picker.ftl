## Pisteen valitsin (issue 14): Pelaa-painike ja /siirrä ilman pistettä.

picker-play = Pelaa
picker-centre = ◎
picker-title = Peli #{ $id }: valitse pisteesi ({ $from }–{ $to }). Nuolet siirtävät ikkunaa, ◎ palaa viimeiseen kiveen.
picker-stale = Tämä valitsin on vanhentunut: peli on edennyt. Käytä uusimman laudan alla olevaa Pelaa-painiketta.
picker-played = Pelasit pisteen { $point } pelissä #{ $id }.
