//! The operations listener: `/metrics` (Prometheus' text format), `/healthz` and `/readyz`.
//!
//! A small HTTP/1 server of its own (hyper), on `metrics.listen`, apart from anything Discord
//! sees. It is bound at start-up, so that a taken or wrong address stops the bot at once with
//! one clear line, and it answers until the bot has stopped (during a shutdown `/readyz` says
//! 503, so that an orchestrator stops sending work).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use async_trait::async_trait;
use http_body_util::Full;
use hyper::body::Bytes;
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use metrics_exporter_prometheus::PrometheusHandle;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tracing::{debug, warn};

/// What the listener asks the rest of the bot.
#[async_trait]
pub trait Probe: Send + Sync {
    /// `Ok` when the bot can do its work (the database answers, every shard is connected, it
    /// is not shutting down); else why not, in a few words.
    async fn ready(&self) -> Result<(), String>;
    /// Brings the gauges read at scrape time up to date (database counts, pools, shards).
    async fn refresh(&self);
}

/// Why the listener could not start.
#[derive(Debug, thiserror::Error)]
#[error("metrics.listen {addr}: cannot listen: {source}")]
pub struct ListenError {
    /// The address asked for.
    pub addr: String,
    /// The operating system's reason.
    pub source: std::io::Error,
}

/// A bound listener, not yet serving.
#[derive(Debug)]
pub struct Listener {
    inner: TcpListener,
}

impl Listener {
    /// Binds `addr` (`host:port`; port 0 picks a free one).
    ///
    /// # Errors
    /// [`ListenError`] when the address is taken, not local, or malformed.
    pub async fn bind(addr: &str) -> Result<Listener, ListenError> {
        let parsed: SocketAddr = addr.parse().map_err(|_| ListenError {
            addr: addr.to_string(),
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "expected host:port, e.g. 127.0.0.1:9100",
            ),
        })?;
        let inner = TcpListener::bind(parsed)
            .await
            .map_err(|source| ListenError {
                addr: addr.to_string(),
                source,
            })?;
        Ok(Listener { inner })
    }

    /// The address actually bound.
    ///
    /// # Errors
    /// The operating system's, when it cannot tell.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.inner.local_addr()
    }

    /// Serves until `stop` turns true.
    pub async fn serve(
        self,
        metrics: Option<PrometheusHandle>,
        probe: Arc<dyn Probe>,
        mut stop: watch::Receiver<bool>,
    ) {
        let state = Arc::new(State { metrics, probe });
        loop {
            let accepted = tokio::select! {
                accepted = self.inner.accept() => accepted,
                _ = stop.wait_for(|s| *s) => return,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors and the like: wait a little rather than spin.
                    warn!(%e, "the metrics listener could not accept");
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    continue;
                }
            };
            let state = Arc::clone(&state);
            tokio::spawn(async move {
                let service = service_fn(move |request| {
                    let state = Arc::clone(&state);
                    async move { Ok::<_, Infallible>(state.answer(request).await) }
                });
                if let Err(e) = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await
                {
                    debug!(%e, "a metrics connection ended badly");
                }
            });
        }
    }
}

struct State {
    metrics: Option<PrometheusHandle>,
    probe: Arc<dyn Probe>,
}

impl State {
    async fn answer(&self, request: Request<Incoming>) -> Response<Full<Bytes>> {
        if request.method() != Method::GET && request.method() != Method::HEAD {
            return text(StatusCode::METHOD_NOT_ALLOWED, "only GET\n".into());
        }
        match request.uri().path() {
            "/healthz" => text(StatusCode::OK, "ok\n".into()),
            "/readyz" => match self.probe.ready().await {
                Ok(()) => text(StatusCode::OK, "ready\n".into()),
                Err(why) => text(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!("not ready: {why}\n"),
                ),
            },
            "/metrics" => match &self.metrics {
                Some(handle) => {
                    self.probe.refresh().await;
                    let mut answer = text(StatusCode::OK, handle.render());
                    answer.headers_mut().insert(
                        CONTENT_TYPE,
                        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
                    );
                    answer
                }
                None => text(StatusCode::NOT_FOUND, "metrics are off\n".into()),
            },
            _ => text(
                StatusCode::NOT_FOUND,
                "try /metrics, /healthz or /readyz\n".into(),
            ),
        }
    }
}

fn text(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut answer = Response::new(Full::new(Bytes::from(body)));
    *answer.status_mut() = status;
    answer.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    struct FakeProbe {
        ready: AtomicBool,
        refreshed: AtomicUsize,
    }

    #[async_trait]
    impl Probe for FakeProbe {
        async fn ready(&self) -> Result<(), String> {
            if self.ready.load(Ordering::SeqCst) {
                Ok(())
            } else {
                Err("the gateway is not connected".into())
            }
        }
        async fn refresh(&self) {
            self.refreshed.fetch_add(1, Ordering::SeqCst);
        }
    }

    async fn get(addr: SocketAddr, request: &str) -> (u16, String) {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        let status = answer
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap();
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
        (status, body)
    }

    fn request(method: &str, path: &str) -> String {
        format!("{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    }

    #[tokio::test]
    async fn health_readiness_and_metrics_answer_with_their_status_codes() {
        let recorder = crate::ops::metrics::builder().unwrap().build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || crate::ops::metrics::moves_committed(3));
        let listener = Listener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let probe = Arc::new(FakeProbe {
            ready: AtomicBool::new(false),
            refreshed: AtomicUsize::new(0),
        });
        let (stop, stopped) = watch::channel(false);
        let server = tokio::spawn(listener.serve(
            Some(handle),
            Arc::clone(&probe) as Arc<dyn Probe>,
            stopped,
        ));
        assert_eq!(get(addr, &request("GET", "/healthz")).await.0, 200);
        let (status, body) = get(addr, &request("GET", "/readyz")).await;
        assert_eq!(
            (status, body.as_str()),
            (503, "not ready: the gateway is not connected\n")
        );
        probe.ready.store(true, Ordering::SeqCst);
        assert_eq!(get(addr, &request("GET", "/readyz")).await.0, 200);
        let (status, body) = get(addr, &request("GET", "/metrics")).await;
        assert_eq!(status, 200);
        assert!(body.contains("gomoku_moves_committed_total 3"), "{body}");
        assert_eq!(probe.refreshed.load(Ordering::SeqCst), 1);
        assert_eq!(get(addr, &request("GET", "/nothing")).await.0, 404);
        assert_eq!(get(addr, &request("POST", "/metrics")).await.0, 405);
        stop.send(true).unwrap();
        tokio::time::timeout(std::time::Duration::from_secs(5), server)
            .await
            .expect("the listener stops when told")
            .unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_healthcheck_command_passes_only_on_200() {
        let listener = Listener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let probe = Arc::new(FakeProbe {
            ready: AtomicBool::new(false),
            refreshed: AtomicUsize::new(0),
        });
        let (_stop, stopped) = watch::channel(false);
        tokio::spawn(listener.serve(None, Arc::clone(&probe) as Arc<dyn Probe>, stopped));
        let check = |path: &'static str| {
            let addr = addr.clone();
            tokio::task::spawn_blocking(move || {
                crate::ops::healthcheck::check(&addr, path, std::time::Duration::from_secs(5))
            })
        };
        assert_eq!(check("/healthz").await.unwrap(), Ok(()));
        let refused = check("/readyz").await.unwrap().unwrap_err();
        assert!(
            refused.ends_with("503 not ready: the gateway is not connected"),
            "{refused}"
        );
        probe.ready.store(true, Ordering::SeqCst);
        assert_eq!(check("/readyz").await.unwrap(), Ok(()));
        let unspecified = addr.replace("127.0.0.1", "0.0.0.0");
        let asked = tokio::task::spawn_blocking(move || {
            crate::ops::healthcheck::check(
                &unspecified,
                "/healthz",
                std::time::Duration::from_secs(5),
            )
        });
        assert_eq!(
            asked.await.unwrap(),
            Ok(()),
            "0.0.0.0 is asked on the loopback"
        );
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let gone = closed.local_addr().unwrap().to_string();
        drop(closed);
        assert!(
            crate::ops::healthcheck::check(&gone, "/readyz", std::time::Duration::from_secs(1))
                .is_err()
        );
        assert!(
            crate::ops::healthcheck::check("nowhere", "/readyz", std::time::Duration::from_secs(1))
                .is_err()
        );
    }

    #[tokio::test]
    async fn without_metrics_the_health_endpoints_still_answer() {
        let listener = Listener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let probe = Arc::new(FakeProbe {
            ready: AtomicBool::new(true),
            refreshed: AtomicUsize::new(0),
        });
        let (_stop, stopped) = watch::channel(false);
        tokio::spawn(listener.serve(None, probe, stopped));
        assert_eq!(get(addr, &request("GET", "/readyz")).await.0, 200);
        assert_eq!(get(addr, &request("GET", "/metrics")).await.0, 404);
    }

    #[tokio::test]
    async fn a_taken_or_malformed_address_is_one_clear_error() {
        let first = Listener::bind("127.0.0.1:0").await.unwrap();
        let taken = first.local_addr().unwrap().to_string();
        let e = Listener::bind(&taken).await.unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("metrics.listen {taken}: cannot listen:")),
            "{e}"
        );
        let e = Listener::bind("localhost-9100").await.unwrap_err();
        assert!(e.to_string().contains("expected host:port"), "{e}");
    }
}
