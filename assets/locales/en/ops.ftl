## Operating the bot: what members see while it restarts

ops-restarting = The bot is restarting. Try again in a moment: nothing you played is lost.
