//! Gateway faults (issue 16), with the real binary as a child process against the fake
//! Discord: a game goes on through every close code Discord may send (4000-4014), opcode 7
//! Reconnect, opcode 9 Invalid Session (resumable and not) and a zombie connection whose
//! heartbeats are no longer acknowledged; a move made while the bot was away is replayed on
//! RESUME and answered. A refused token (4004) or refused intents (4013, 4014) stop the bot
//! with one line and status 2, after one IDENTIFY. The token is in none of the output.
//!
//! What serenity 0.12 does with each close code (`Shard::handle_gateway_closed`), which these
//! tests pin down:
//! - 4000, 4001, 4002, 4005, 4008: resumes the session at once.
//! - 4003, 4010, 4011, 4012: logs the error, then notices the dead connection at its next
//!   heartbeat and identifies afresh (a new session).
//! - 4006, 4009: forgets the session and identifies afresh; 4007: resumes from sequence 0,
//!   which Discord (and the fake) refuses with opcode 9, so it identifies afresh.
//! - 4004, 4013, 4014: gives up; `client.start()` returns the error.

use crate::bot::{content, is_ephemeral, ready_with_a_game};
use crate::ops::{BotProcess, resuming_fake, slow_start};
use crate::support::fake_discord::{FakeDiscord, Req, SlashCommand, TestUser};
use serenity::all::ChannelId;

/// Close codes after which serenity resumes the session.
const RESUMING: [u16; 5] = [4000, 4001, 4002, 4005, 4008];
/// Close codes after which serenity identifies afresh (a new session).
const IDENTIFYING: [u16; 7] = [4003, 4006, 4007, 4009, 4010, 4011, 4012];

/// Moves that never make a line of two for either player: the first player on the even
/// lattice (A1, A3, ... C1, ...), the second on the odd one (B2, B4, ...).
fn harmless_moves() -> Vec<String> {
    let first: Vec<String> = ["A", "C", "E", "G"]
        .iter()
        .flat_map(|c| (1..=15).step_by(2).map(move |r| format!("{c}{r}")))
        .collect();
    let second: Vec<String> = ["B", "D", "F", "H"]
        .iter()
        .flat_map(|c| (2..=14).step_by(2).map(move |r| format!("{c}{r}")))
        .collect();
    first
        .into_iter()
        .zip(second)
        .flat_map(|(a, b)| [a, b])
        .collect()
}

/// The game played through the faults: whose turn it is and the moves left.
struct Game {
    thread: ChannelId,
    order: [TestUser; 2],
    moves: Vec<String>,
    played: usize,
}

impl Game {
    /// Sends the next move (without waiting for a live session when the fake queues
    /// dispatches for a resume).
    async fn send_move(&self, fake: &FakeDiscord) -> crate::support::fake_discord::Sent {
        fake.send(
            SlashCommand::new("move")
                .by(&self.order[self.played % 2])
                .in_channel(self.thread)
                .string("at", &self.moves[self.played]),
        )
        .await
    }

    /// Waits for the answer to `sent`: the move is played, in public.
    async fn answered(
        &mut self,
        fake: &FakeDiscord,
        sent: &crate::support::fake_discord::Sent,
        fault: &str,
    ) {
        let answer = fake.next_request(&Req::callback(sent)).await;
        assert!(
            !is_ephemeral(&answer),
            "after {fault}: the move {} was refused: {}",
            self.moves[self.played],
            content(&answer)
        );
        self.played += 1;
    }

    async fn play(&mut self, fake: &FakeDiscord, fault: &str) {
        let sent = self.send_move(fake).await;
        self.answered(fake, &sent, fault).await;
    }
}

fn assert_no_token(bot: &BotProcess, tokens: &[&str]) {
    for line in bot.output() {
        for token in tokens {
            assert!(!line.contains(token), "a token is in a log line");
        }
    }
}

// This test failed once in a full run (no new session within 60 s after close code 4012 while
// the bot kept answering moves): the fake marked a session closed with a non-resumable code as
// ended only when the closing connection's task ran, and under load serenity's RESUME on its
// new connection came first and was accepted. The fake now ends the session when it closes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_goes_on_through_every_close_code_reconnect_invalid_session_and_a_zombie() {
    let dir = tempfile::tempdir().unwrap();
    // Serenity notices a dead or silent connection at its next heartbeat: keep that short.
    let fake = resuming_fake(1_000).await;
    let bot = BotProcess::start(&fake, dir.path(), "", &[("RUST_LOG", "debug")]);
    let (_, _, started) = ready_with_a_game(&fake).await;
    let mut game = Game {
        thread: started.thread,
        order: started.order,
        moves: harmless_moves(),
        played: 0,
    };
    game.play(&fake, "the start").await;

    // Faults after which the session resumes: the move is made while the bot is away (its
    // new connection held), and Discord replays it on RESUME.
    let mut resumes = 0;
    type Fault = Box<dyn Fn(&FakeDiscord) -> bool>;
    let mut resuming: Vec<(String, Fault)> = RESUMING
        .iter()
        .map(|&code| {
            (
                format!("close code {code}"),
                Box::new(move |f: &FakeDiscord| f.close_gateway(code)) as Fault,
            )
        })
        .collect();
    resuming.push(("op 7 Reconnect".into(), Box::new(|f| f.ask_reconnect())));
    resuming.push((
        "op 9 Invalid Session (resumable)".into(),
        Box::new(|f| f.invalidate_session(true)),
    ));
    for (fault, inflict) in &resuming {
        fake.queue_while_away(true);
        fake.hold_gateway();
        assert!(inflict(&fake), "{fault}: no live session");
        let sent = game.send_move(&fake).await;
        fake.open_gateway();
        resumes += 1;
        fake.wait_for_resumes(resumes).await;
        fake.queue_while_away(false);
        game.answered(&fake, &sent, fault).await;
        game.play(&fake, fault).await;
    }

    // Faults after which the bot identifies afresh: a new session, and the game goes on.
    let mut session = 1;
    let mut identifying: Vec<(String, Fault)> = IDENTIFYING
        .iter()
        .map(|&code| {
            (
                format!("close code {code}"),
                Box::new(move |f: &FakeDiscord| f.close_gateway(code)) as Fault,
            )
        })
        .collect();
    identifying.push((
        "op 9 Invalid Session (not resumable)".into(),
        Box::new(|f| f.invalidate_session(false)),
    ));
    identifying.push((
        "a zombie connection".into(),
        Box::new(|f| f.stop_acking_heartbeats().is_some()),
    ));
    for (fault, inflict) in &identifying {
        assert!(inflict(&fake), "{fault}: no live session");
        session += 1;
        fake.wait_for_session(session).await;
        game.play(&fake, fault).await;
    }
    assert_eq!(
        fake.resumes(),
        resumes,
        "only the resuming faults resumed (4007's resume from 0 was refused)"
    );
    assert_eq!(fake.identifies(), usize::try_from(session).unwrap());
    assert!(
        fake.replayed() >= u64::try_from(resuming.len()).unwrap(),
        "each move made while the bot was away was replayed: {}",
        fake.replayed()
    );
    assert!(
        game.played >= resuming.len() * 2 + identifying.len(),
        "{}",
        game.played
    );
    assert_no_token(&bot, &[fake.token()]);
    fake.assert_all_requests_valid();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_or_refused_intents_stop_the_bot_with_one_line_after_one_identify() {
    let wrong = "MTIzNDU2Nzg5MDEyMzQ1Njc4.wrong.token-that-discord-refuses";
    for (code, expected) in [
        (4004, "Discord refused the bot token (gateway close 4004"),
        (
            4013,
            "Discord refused the gateway intents as invalid (gateway close 4013)",
        ),
        (
            4014,
            "Discord refused the gateway intents (gateway close 4014",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let fake = FakeDiscord::start_with(slow_start()).await;
        let env: &[(&str, &str)] = if code == 4004 {
            &[("DISCORD_TOKEN", wrong), ("RUST_LOG", "trace")]
        } else {
            fake.refuse_next_identify(code);
            &[("RUST_LOG", "trace")]
        };
        // With a shard count given, the bot asks Discord nothing before it identifies: the
        // token is judged by the gateway (without one, by GET /gateway/bot: the next test).
        let config = format!(
            "shutdown_grace_seconds = 15\n[discord]\ndev_guild_id = {}\n",
            fake.guild_id().get()
        );
        let args = ["--shard-total", "1"];
        let mut bot = BotProcess::spawn(&fake, dir.path(), &config, env, &args);
        let (error, _) = bot.refused_with_one_line(&format!("{code}: ")).await;
        assert!(
            error.starts_with(&format!("error: {expected}")),
            "{code}: {error}"
        );
        // It never tried again.
        assert_eq!(fake.identifies(), 1, "{code}");
        assert_eq!(fake.connections(), 1, "{code}");
        assert_no_token(&bot, &[fake.token(), wrong]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_stops_the_bot_at_the_recommended_shard_count_with_one_line() {
    let wrong = "MTIzNDU2Nzg5MDEyMzQ1Njc4.wrong.token-that-discord-refuses";
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start_with(slow_start()).await;
    let mut bot = BotProcess::start(&fake, dir.path(), "", &[("DISCORD_TOKEN", wrong)]);
    let (error, _) = bot.refused_with_one_line("").await;
    assert!(
        error.starts_with(
            "error: Discord refused the bot token (401 Unauthorized on GET /gateway/bot)"
        ),
        "{error}"
    );
    assert_eq!(fake.identifies(), 0, "it never identified");
    assert_no_token(&bot, &[fake.token(), wrong]);
}
