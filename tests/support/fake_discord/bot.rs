//! A real serenity client running in the test, and how to stop it.

use std::sync::Arc;
use std::time::Duration;

use serenity::all::{Client, ShardManager};
use tokio::task::JoinHandle;

/// A started `serenity::Client`: its task and its shard manager.
pub struct RunningBot {
    shard_manager: Arc<ShardManager>,
    task: JoinHandle<Result<(), serenity::Error>>,
}

impl RunningBot {
    /// Starts `client` (one shard) on the test's runtime.
    pub fn spawn(mut client: Client) -> Self {
        let shard_manager = Arc::clone(&client.shard_manager);
        let task = tokio::spawn(async move { client.start().await });
        Self {
            shard_manager,
            task,
        }
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
    }
}
