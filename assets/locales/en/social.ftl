## Between the players: /undo, /draw, rematches

cmd-undo = undo
cmd-undo-desc = Ask your opponent to take back your last move
cmd-undo-game = game
cmd-undo-game-desc = The game (if you play several here)
cmd-draw = draw
cmd-draw-desc = Offer your opponent a draw (two-player games)
cmd-draw-game = game
cmd-draw-game-desc = The game (if you play several here)

button-rematch = Rematch

offer-undo = **Game #{ $id }** · { $player } asks to take back { $moves }. { $answerers }: do you accept?
offer-draw = **Game #{ $id }** · { $player } offers a draw. { $answerers }: do you accept?
offer-posted = Your offer is posted in { $place }.
offer-undo-accepted = { $player } accepted: { $moves } taken back.
offer-undo-computer = { $player } took back { $moves }; the computer agreed.
offer-draw-accepted = { $player } accepted the draw.
offer-waiting = { $player } accepted; waiting for { $waiting }.
offer-declined = { $player } declined.
offer-withdrawn = { $player } withdrew the offer.
offer-expired = This offer expired: the game moved on.
offer-undo-lapsed = **Game #{ $id }** · { $player }'s take-back request expired: the game moved on.
offer-draw-lapsed = **Game #{ $id }** · { $player }'s draw offer expired: the game moved on.
dm-offer-undo = { $player } asks to take back a move in game #{ $id }: { $place }
dm-offer-draw = { $player } offers a draw in game #{ $id }: { $place }
rematch-lead = Rematch of game #{ $id }, with the seats swapped.
rematch-posted = Your rematch proposal is in { $place }.
dm-rematch = { $player } proposes a rematch of game #{ $id }: { $place }
dm-challenge = { $player } challenges you to a game: { $place }

err-offer-no-such = That offer no longer exists.
err-offer-not-yours = Only the other players of this game can answer this offer.
err-offer-nothing-to-undo = You have no move to take back yet.
err-offer-draw-two-players = A draw can only be offered in a two-player game.
err-offer-rematch-two-players = Rematches are for two-player games only.
err-offer-computer = The computer does not agree to draws or play rematches. To play it again, use `/challenge` with it as the opponent.
err-offer-not-computer = Your opponent is a member: `/undo` asks them.
err-offer-own = You cannot accept your own offer: your opponent decides.
err-offer-expired = This offer expired: the game moved on since it was made.
err-offer-accepted = This offer was already accepted.
err-offer-declined = This offer was already declined.
err-offer-withdrawn = This offer was withdrawn.
err-offer-pending = You already made this offer; wait for the answer.
err-offer-game-not-over = A rematch can be proposed once the game is over.
err-offer-rematch-pending = A rematch of this game is already proposed.
err-offer-rematched = This game was already rematched.
err-offer-rematched-as = This game was already rematched: game #{ $id }.
