//! A real serenity client running in the test, and how to stop it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serenity::all::{Client, ShardManager};
use tokio::task::JoinHandle;

/// What a stop does after the client returned (the bot's own background work).
type AfterStop = Box<dyn FnOnce() -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// A started `serenity::Client`: its task and its shard manager.
pub struct RunningBot {
    shard_manager: Arc<ShardManager>,
    task: JoinHandle<Result<(), serenity::Error>>,
    after_stop: Option<AfterStop>,
}

impl RunningBot {
    /// Starts `client` (one shard) on the test's runtime.
    pub fn spawn(mut client: Client) -> Self {
        let shard_manager = Arc::clone(&client.shard_manager);
        let task = tokio::spawn(async move { client.start().await });
        Self {
            shard_manager,
            task,
            after_stop: None,
        }
    }

    /// Runs `stop` at [`Self::shutdown`] once the client has returned: the bot's background
    /// tasks (its outbox poster) outlive the client in a test process, where a process's
    /// exit would end them, and must not talk to the fake beside a restarted bot.
    #[must_use]
    pub fn after_stop<F>(mut self, stop: impl FnOnce() -> F + Send + 'static) -> Self
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.after_stop = Some(Box::new(move || Box::pin(stop())));
        self
    }

    /// Whether the client's task has ended (it should not, until [`Self::shutdown`]).
    pub fn has_stopped(&self) -> bool {
        self.task.is_finished()
    }

    /// Stops every shard and waits for the client to return, as a restart of the bot would.
    ///
    /// # Panics
    /// The client does not stop within 10 s or returned an error.
    pub async fn shutdown(self) {
        self.shard_manager.shutdown_all().await;
        match tokio::time::timeout(Duration::from_secs(10), self.task).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => panic!("the client stopped with an error: {e}"),
            Ok(Err(e)) => panic!("the client task failed: {e}"),
            Err(_) => panic!("the client did not stop within 10 s"),
        }
        if let Some(stop) = self.after_stop
            && tokio::time::timeout(Duration::from_secs(10), stop())
                .await
                .is_err()
        {
            panic!("the bot's background work did not stop within 10 s");
        }
    }
}
