//! Between the players: take-backs, draw offers and rematches.
//!
//! # Take-backs (`undo`)
//! A player asks to take back their last action. Accepting takes back that action **and
//! every action made since** (the opponents' replies), so it is the asking player's turn
//! again in the position before their action, captures restored. In a two-player game that
//! is one action if the opponent has not replied yet, two if they have. With 3-4 players
//! every other player must accept; a single refusal declines it.
//!
//! The move log is append-only: a take-back is a new row `undo:N` (N actions taken back,
//! seat = the asking player) that [`Loaded::rebuild`](super) replays with the rules core's
//! [`Game::undo`], which restores the exact previous position.
//!
//! # Draw offers
//! Two-player games only. Accepting ends the game with [`ResultReason::DrawAgreed`] through
//! the move log (row `draw`, seat = the accepting player), like every other ending.
//!
//! # Expiry
//! An offer belongs to the ply its game was at: once anything is appended to the game (a
//! move, a resignation, another accepted offer) it can no longer be accepted, and is closed
//! as expired when someone answers it or [`Service::expire_stale_offers`] runs.
//!
//! # Rematches
//! A finished two-player game can be rematched: the proposer challenges the other player
//! to the same rules, time control and rating, and when the opponent accepts (the ordinary
//! challenge Accept) the new game seats them with their seats swapped (seat 1 moves first,
//! or places the swap stones). 3-4 player games have no rematch.

use thiserror::Error;

use super::{Actor, GameView, Loaded, Service, ServiceError, renamed};
use crate::rules::{Action, Colours, Game};
use crate::store::{
    AppendError, Challenge, ChallengeId, ChallengeStatus, ChannelId, GameId, GameResult,
    GameStatus, GuildId, MessageId, NewAction, NewChallenge, Offer, OfferId, OfferInsert,
    OfferKind, OfferStatus, Owed, ResultReason, Timestamp, UserId, UserInfo,
};

/// The move-log token of an agreed draw.
pub(super) const DRAW: &str = "draw";
const UNDO_PREFIX: &str = "undo:";

/// The number of actions a move-log token `undo:N` takes back (`None` for other tokens).
pub(super) fn undo_count(token: &str) -> Option<usize> {
    token.strip_prefix(UNDO_PREFIX)?.parse().ok()
}

/// Why a take-back, draw or rematch was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OfferError {
    /// No offer with that number in this guild.
    #[error("no such offer")]
    NoSuchOffer,
    /// The player has made no action yet that could be taken back.
    #[error("nothing to take back")]
    NothingToUndo,
    /// Draw offers are for two-player games.
    #[error("draws are offered in two-player games only")]
    DrawTwoPlayersOnly,
    /// Rematches are for two-player games.
    #[error("rematches are for two-player games only")]
    RematchTwoPlayersOnly,
    /// The player tried to accept their own offer.
    #[error("cannot accept your own offer")]
    OwnOffer,
    /// The game moved on since the offer was made.
    #[error("the offer expired")]
    Expired,
    /// The offer was already answered.
    #[error("the offer is {0:?}")]
    Closed(OfferStatus),
    /// The player already has the same offer open.
    #[error("offer {0} is already open")]
    Pending(OfferId),
    /// A rematch is for finished games.
    #[error("the game is not over")]
    GameNotOver,
    /// A rematch of this game is already proposed and open.
    #[error("rematch challenge {0} is already open")]
    RematchPending(ChallengeId),
    /// This game was already rematched (as the game given, once started).
    #[error("already rematched")]
    AlreadyRematched(Option<GameId>),
    /// The other seat is the computer, which answers no offers: it agrees to every
    /// take-back at once ([`crate::service::Service::take_back_from_computer`]), to no draw,
    /// and a new game is one `/challenge` away.
    #[error("the computer answers no offers")]
    AgainstComputer,
    /// A take-back without asking is only for games against the computer.
    #[error("the opponent is a member, who must be asked")]
    NotAgainstComputer,
}

impl From<OfferError> for ServiceError {
    fn from(e: OfferError) -> Self {
        ServiceError::Offer(e)
    }
}

/// An offer just made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfferMade {
    /// The offer.
    pub offer: Offer,
    /// The game as it stands.
    pub view: GameView,
    /// For a take-back: the actions it would take back, oldest first.
    pub taken_back: Vec<Action>,
    /// Who must accept it (every other player).
    pub answerers: Vec<UserId>,
}

/// What an answer to an offer did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted by everyone needed: the take-back or draw happened.
    Accepted {
        /// For a take-back: the actions taken back, oldest first.
        taken_back: Vec<Action>,
    },
    /// Accepted by this player; others still have to (3-4 player take-backs).
    Waiting {
        /// Who has not accepted yet.
        waiting: Vec<UserId>,
    },
    /// Declined by an opponent.
    Declined,
    /// Withdrawn by the player who made it.
    Withdrawn,
}

/// An answered offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answered {
    /// The offer afterwards.
    pub offer: Offer,
    /// What the answer did.
    pub outcome: Outcome,
    /// The game afterwards.
    pub view: GameView,
}

/// How many actions, counted from the end of `game`'s record, a take-back by `seat` removes:
/// back to and including that seat's last action. `None` when the seat has not acted.
fn take_back_count(game: &Game, seat: u8) -> Option<usize> {
    let mut replay = Game::new(*game.rules());
    let mut last = None;
    for (i, action) in game.record().iter().enumerate() {
        if replay.seat_to_act() == Some(seat) {
            last = Some(i);
        }
        replay.apply(*action).ok()?;
    }
    last.map(|i| game.record().len() - i)
}

/// Takes back the last `n` actions of the cached game and returns the move-log row that
/// records it (`undo:N` by `seat`) with the actions taken back, oldest first. The caller
/// appends the row, and restores the game if that fails.
fn take_back(
    loaded: &mut Loaded,
    seat: u8,
    n: usize,
    now: Timestamp,
    rename: Option<(GuildId, UserInfo)>,
    owed: Owed,
) -> (NewAction, Vec<Action>) {
    let mut taken_back = Vec::new();
    for _ in 0..n {
        taken_back.extend(loaded.game.undo());
    }
    taken_back.reverse();
    let new = NewAction {
        game: loaded.meta.id,
        ply: loaded.meta.ply + 1,
        seat,
        token: format!("{UNDO_PREFIX}{n}"),
        at: now,
        to_act: loaded.game.seat_to_act(),
        deadline: loaded.meta.time.deadline_after(now),
        finished: None,
        rename,
        owed,
        computer: loaded.meta.against_computer,
    };
    (new, taken_back)
}

/// The seats other than `seat`.
fn other_seats(loaded: &Loaded, seat: u8) -> Vec<u8> {
    loaded
        .seats
        .iter()
        .map(|s| s.seat)
        .filter(|s| *s != seat)
        .collect()
}

fn users_of(loaded: &Loaded, seats: &[u8]) -> Vec<UserId> {
    loaded
        .seats
        .iter()
        .filter(|s| seats.contains(&s.seat))
        .map(|s| s.user)
        .collect()
}

impl Service {
    /// Asks the other player(s) to take back the caller's last action (see the module
    /// documentation for what is taken back).
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::NoActiveGame`],
    /// [`ServiceError::Ambiguous`], [`ServiceError::GameOver`],
    /// [`ServiceError::NotAParticipant`], [`OfferError::NothingToUndo`],
    /// [`OfferError::Pending`], [`ServiceError::Storage`].
    pub async fn offer_undo(
        &self,
        actor: &Actor,
        game: Option<GameId>,
    ) -> Result<OfferMade, ServiceError> {
        self.make_offer(actor, game, OfferKind::Undo).await
    }

    /// Offers the opponent a draw (two-player games).
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::NoActiveGame`],
    /// [`ServiceError::Ambiguous`], [`ServiceError::GameOver`],
    /// [`ServiceError::NotAParticipant`], [`OfferError::DrawTwoPlayersOnly`],
    /// [`OfferError::Pending`], [`ServiceError::Storage`].
    pub async fn offer_draw(
        &self,
        actor: &Actor,
        game: Option<GameId>,
    ) -> Result<OfferMade, ServiceError> {
        self.make_offer(actor, game, OfferKind::Draw).await
    }

    /// Takes back, at once, the caller's last move in a game against the computer (which
    /// always agrees), together with the computer's reply since: it is the caller's turn
    /// again, in the exact earlier position. Returns the game and the actions taken back,
    /// oldest first.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::NoActiveGame`],
    /// [`ServiceError::Ambiguous`], [`ServiceError::GameOver`],
    /// [`ServiceError::NotAParticipant`], [`OfferError::NotAgainstComputer`],
    /// [`OfferError::NothingToUndo`], [`ServiceError::PositionChanged`] (the computer moved
    /// at that instant: try again), [`ServiceError::Storage`].
    pub async fn take_back_from_computer(
        &self,
        actor: &Actor,
        game: Option<GameId>,
    ) -> Result<(GameView, Vec<Action>), ServiceError> {
        let id = self.resolve_game(actor, game).await?;
        let slot = self.slot(id);
        let mut cached = slot.lock().await;
        let result = self.take_back_locked(&mut cached, id, actor).await;
        self.settle(id, cached);
        result
    }

    async fn take_back_locked(
        &self,
        cached: &mut Option<Loaded>,
        id: GameId,
        actor: &Actor,
    ) -> Result<(GameView, Vec<Action>), ServiceError> {
        self.refresh(cached, id).await?;
        let loaded = self.active_game(cached, id, actor.guild).await?;
        let seat_row = loaded
            .seat_of(actor.user.id)
            .ok_or(ServiceError::NotAParticipant)?;
        let (seat, rename) = (seat_row.seat, renamed(seat_row, actor));
        if !loaded.meta.against_computer {
            return Err(OfferError::NotAgainstComputer.into());
        }
        let n = take_back_count(&loaded.game, seat).ok_or(OfferError::NothingToUndo)?;
        let before = loaded.game.clone();
        let (new, taken_back) = take_back(
            loaded,
            seat,
            n,
            self.now(),
            rename,
            Owed::board_for(actor.owes_posts && self.outbox_on(), None),
        );
        if let Err(e) = self.store.append_action(&new).await {
            loaded.game = before;
            return Err(match e {
                AppendError::Conflict => {
                    *cached = None;
                    ServiceError::PositionChanged
                }
                AppendError::Storage(s) => ServiceError::Storage(s),
            });
        }
        Self::committed(loaded, &new);
        Ok((loaded.view(), taken_back))
    }

    async fn make_offer(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        kind: OfferKind,
    ) -> Result<OfferMade, ServiceError> {
        let id = self.resolve_game(actor, game).await?;
        let slot = self.slot(id);
        let mut cached = slot.lock().await;
        let result = self.make_offer_locked(&mut cached, id, actor, kind).await;
        self.settle(id, cached);
        result
    }

    async fn make_offer_locked(
        &self,
        cached: &mut Option<Loaded>,
        id: GameId,
        actor: &Actor,
        kind: OfferKind,
    ) -> Result<OfferMade, ServiceError> {
        self.refresh(cached, id).await?;
        let loaded = self.active_game(cached, id, actor.guild).await?;
        let seat = loaded
            .seat_of(actor.user.id)
            .ok_or(ServiceError::NotAParticipant)?
            .seat;
        if loaded.meta.against_computer {
            return Err(OfferError::AgainstComputer.into());
        }
        let taken_back = match kind {
            OfferKind::Draw if loaded.game.rules().players > 2 => {
                return Err(OfferError::DrawTwoPlayersOnly.into());
            }
            OfferKind::Draw => Vec::new(),
            OfferKind::Undo => {
                let n = take_back_count(&loaded.game, seat).ok_or(OfferError::NothingToUndo)?;
                let record = loaded.game.record();
                record[record.len() - n..].to_vec()
            }
        };
        let made = self
            .store
            .insert_offer(id, kind, loaded.meta.ply, seat, actor.user.id, self.now())
            .await?;
        let offer = match made {
            OfferInsert::Made(o) => o,
            OfferInsert::Pending(o) => return Err(OfferError::Pending(o.id).into()),
        };
        Ok(OfferMade {
            offer,
            view: loaded.view(),
            taken_back,
            answerers: users_of(loaded, &other_seats(loaded, seat)),
        })
    }

    /// An offer of this guild.
    ///
    /// # Errors
    /// [`OfferError::NoSuchOffer`], [`ServiceError::Storage`].
    pub async fn offer_info(
        &self,
        guild: crate::store::GuildId,
        id: OfferId,
    ) -> Result<Offer, ServiceError> {
        let offer = self.store.offer(id).await?.ok_or(OfferError::NoSuchOffer)?;
        match self.game(guild, offer.game).await {
            Ok(_) => Ok(offer),
            Err(ServiceError::NoSuchGame) => Err(OfferError::NoSuchOffer.into()),
            Err(e) => Err(e),
        }
    }

    /// Records the message that shows an offer (so it can be struck when it lapses).
    ///
    /// # Errors
    /// [`OfferError::NoSuchOffer`], [`ServiceError::Storage`].
    pub async fn set_offer_message(
        &self,
        id: OfferId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<(), ServiceError> {
        if self.store.set_offer_message(id, channel, message).await? {
            Ok(())
        } else {
            Err(OfferError::NoSuchOffer.into())
        }
    }

    /// Closes the game's open offers made at an earlier position and returns them (so the
    /// front can strike their buttons). Safe to run from several processes at once.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn expire_stale_offers(&self, game: GameId) -> Result<Vec<Offer>, ServiceError> {
        let Some(ply) = self.store.game_ply(game).await? else {
            return Ok(Vec::new());
        };
        Ok(self
            .store
            .expire_stale_offers(game, ply, self.now())
            .await?)
    }

    /// Answers an offer: `accept` or decline it (the player who made it declining withdraws
    /// it). Only the game's other players may accept.
    ///
    /// # Errors
    /// [`OfferError::NoSuchOffer`], [`ServiceError::NotAParticipant`] (someone else),
    /// [`OfferError::OwnOffer`] (accepting one's own), [`OfferError::Expired`] (the game
    /// moved on; the offer is closed), [`OfferError::Closed`] (already answered),
    /// [`ServiceError::Storage`].
    pub async fn answer_offer(
        &self,
        actor: &Actor,
        id: OfferId,
        accept: bool,
    ) -> Result<Answered, ServiceError> {
        let offer = self.offer_info(actor.guild, id).await?;
        let slot = self.slot(offer.game);
        let mut cached = slot.lock().await;
        let result = self.answer_locked(&mut cached, id, actor, accept).await;
        self.settle(offer.game, cached);
        result
    }

    async fn answer_locked(
        &self,
        cached: &mut Option<Loaded>,
        id: OfferId,
        actor: &Actor,
        accept: bool,
    ) -> Result<Answered, ServiceError> {
        // Read again under the game's lock: another answer may have closed it meanwhile.
        let offer = self.store.offer(id).await?.ok_or(OfferError::NoSuchOffer)?;
        self.refresh(cached, offer.game).await?;
        let now = self.now();
        let loaded = self.ensure_loaded(cached, offer.game).await?;
        let seat_row = loaded
            .seat_of(actor.user.id)
            .ok_or(ServiceError::NotAParticipant)?;
        let (seat, rename) = (seat_row.seat, renamed(seat_row, actor));
        match offer.status {
            OfferStatus::Open => {}
            OfferStatus::Expired => return Err(OfferError::Expired.into()),
            other => return Err(OfferError::Closed(other).into()),
        }
        if loaded.meta.status != GameStatus::Active || loaded.meta.ply != offer.ply {
            self.store
                .close_offer(id, OfferStatus::Expired, None, now)
                .await?;
            return Err(OfferError::Expired.into());
        }
        let closing = match (accept, seat == offer.seat) {
            (true, true) => return Err(OfferError::OwnOffer.into()),
            (false, true) => Some((OfferStatus::Withdrawn, Outcome::Withdrawn)),
            (false, false) => Some((OfferStatus::Declined, Outcome::Declined)),
            (true, false) => None,
        };
        if let Some((status, outcome)) = closing {
            if !self
                .store
                .close_offer(id, status, Some(actor.user.id), now)
                .await?
            {
                return Err(self.explain_offer(id).await);
            }
            return Ok(Answered {
                offer: self.offer_after(id).await?,
                outcome,
                view: loaded.view(),
            });
        }
        let Some(approvals) = self.store.approve_offer(id, seat).await? else {
            return Err(self.explain_offer(id).await);
        };
        let others = other_seats(loaded, offer.seat);
        let missing: Vec<u8> = others
            .iter()
            .copied()
            .filter(|s| !approvals.contains(s))
            .collect();
        if !missing.is_empty() {
            return Ok(Answered {
                offer: self.offer_after(id).await?,
                outcome: Outcome::Waiting {
                    waiting: users_of(loaded, &missing),
                },
                view: loaded.view(),
            });
        }
        let before = loaded.game.clone();
        let mut taken_back = Vec::new();
        let new = match offer.kind {
            OfferKind::Undo => {
                let n = take_back_count(&loaded.game, offer.seat).ok_or(OfferError::Expired)?;
                let (new, actions) = take_back(
                    loaded,
                    offer.seat,
                    n,
                    now,
                    rename,
                    Owed::board_for(actor.owes_posts && self.outbox_on(), None),
                );
                taken_back = actions;
                new
            }
            OfferKind::Draw => NewAction {
                game: offer.game,
                ply: loaded.meta.ply + 1,
                seat,
                token: DRAW.to_string(),
                at: now,
                to_act: None,
                deadline: None,
                finished: Some(GameResult {
                    winners: Colours::EMPTY,
                    reason: ResultReason::DrawAgreed,
                }),
                rename,
                owed: Owed::board_for(actor.owes_posts && self.outbox_on(), None),
                computer: loaded.meta.against_computer,
            },
        };
        if let Err(e) = self.store.append_action(&new).await {
            loaded.game = before;
            return Err(match e {
                AppendError::Conflict => {
                    // Someone acted at that instant: the offer's position is gone.
                    *cached = None;
                    self.store
                        .close_offer(id, OfferStatus::Expired, None, now)
                        .await?;
                    OfferError::Expired.into()
                }
                AppendError::Storage(s) => ServiceError::Storage(s),
            });
        }
        Self::committed(loaded, &new);
        // The action is committed; the offer's row only records how it ended (were this to
        // fail, the offer would be stale anyway, its ply being past).
        self.store
            .close_offer(id, OfferStatus::Accepted, Some(actor.user.id), now)
            .await?;
        Ok(Answered {
            offer: self.offer_after(id).await?,
            outcome: Outcome::Accepted { taken_back },
            view: loaded.view(),
        })
    }

    async fn offer_after(&self, id: OfferId) -> Result<Offer, ServiceError> {
        Ok(self.store.offer(id).await?.ok_or(OfferError::NoSuchOffer)?)
    }

    /// After a conditional update found an offer no longer open: says why.
    async fn explain_offer(&self, id: OfferId) -> ServiceError {
        match self.store.offer(id).await {
            Err(e) => e.into(),
            Ok(None) => OfferError::NoSuchOffer.into(),
            Ok(Some(o)) if o.status == OfferStatus::Expired => OfferError::Expired.into(),
            Ok(Some(o)) => OfferError::Closed(o.status).into(),
        }
    }

    /// Proposes a rematch of a finished two-player game to the other player: a challenge
    /// with the same rules, time control and rating which, once accepted, seats the two
    /// players the other way round.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::NotAParticipant`],
    /// [`OfferError::GameNotOver`], [`OfferError::RematchTwoPlayersOnly`],
    /// [`OfferError::RematchPending`], [`OfferError::AlreadyRematched`],
    /// [`ServiceError::TooManyOpenGames`], [`ServiceError::Storage`].
    pub async fn propose_rematch(
        &self,
        actor: &Actor,
        game: GameId,
    ) -> Result<Challenge, ServiceError> {
        let now = self.now();
        let view = self.game(actor.guild, game).await?;
        let me = view
            .seat_of(actor.user.id)
            .ok_or(ServiceError::NotAParticipant)?
            .seat;
        if !view.is_over() {
            return Err(OfferError::GameNotOver.into());
        }
        if view.seats.len() != 2 {
            return Err(OfferError::RematchTwoPlayersOnly.into());
        }
        if view.against_computer {
            return Err(OfferError::AgainstComputer.into());
        }
        for c in self.store.rematches_of_game(game).await? {
            let Some(c) = self.store.challenge(c).await? else {
                continue;
            };
            match c.status {
                ChallengeStatus::Accepted => {
                    return Err(OfferError::AlreadyRematched(c.game).into());
                }
                ChallengeStatus::Open if c.expires_at > now => {
                    return Err(OfferError::RematchPending(c.id).into());
                }
                ChallengeStatus::Open => {
                    self.store
                        .close_challenge(c.id, ChallengeStatus::Expired, None, now)
                        .await?;
                }
                _ => {}
            }
        }
        let Some(other) = view.seats.iter().find(|s| s.seat != me) else {
            return Err(OfferError::RematchTwoPlayersOnly.into());
        };
        self.check_pair(actor.guild, actor.user.id, other.user, now)
            .await?;
        let new = NewChallenge {
            guild: actor.guild,
            channel: view.channel,
            challenger: actor.user.clone(),
            opponent: Some(UserInfo {
                id: other.user,
                name: other.name.clone(),
                is_bot: false,
            }),
            rules: *view.game.rules(),
            time: view.time,
            rated: view.rated,
            now,
            expires_at: now.plus(self.config.challenge_ttl),
        };
        let id = self.store.insert_rematch(&new, game).await?;
        self.challenge_info(actor.guild, id).await
    }

    /// The game a challenge is the rematch of, if it is one.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn rematch_of(&self, challenge: ChallengeId) -> Result<Option<GameId>, ServiceError> {
        Ok(self.store.rematch_of(challenge).await?)
    }

    /// The seats of a challenge's members in joining order (the challenger first): swapped
    /// from the old game for a rematch, else drawn at random.
    pub(super) async fn seat_order_for(&self, c: &Challenge) -> Result<Vec<u8>, ServiceError> {
        if let Some(old) = self.store.rematch_of(c.id).await?
            && let Some(stored) = self.store.load_game(old).await?
            && let Some(seat) = stored
                .seats
                .iter()
                .find(|s| s.user == c.challenger)
                .map(|s| s.seat)
            && c.rules.players == 2
            && (1..=2).contains(&seat)
        {
            // Member 1 is the proposer, member 2 the opponent who accepts.
            return Ok(vec![3 - seat, seat]);
        }
        Ok(self.seat_order(c.rules.players))
    }
}
