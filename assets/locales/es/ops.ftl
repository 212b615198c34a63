## Operación del bot: lo que ven los miembros mientras se reinicia

ops-restarting = El bot se está reiniciando. Vuelve a intentarlo en un momento: no se ha perdido nada de lo que jugaste.
