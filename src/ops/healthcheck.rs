//! `gomoku-bot healthcheck`: asks the running bot's `/readyz` (or `/healthz`) and exits 0 when
//! it says 200, for Docker's `HEALTHCHECK` (the runtime image has no curl).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Sends `GET path` to `addr` and returns `Ok` when the answer is 200, else why not.
///
/// # Errors
/// The address is malformed, nothing answers within `timeout`, or the status is not 200
/// (the message then carries the body, e.g. "not ready: 0 of 1 gateway shards connected").
pub fn check(addr: &str, path: &str, timeout: Duration) -> Result<(), String> {
    let parsed: SocketAddr = addr
        .parse()
        .map_err(|_| format!("`{addr}` is not host:port"))?;
    // A bot listening on every interface is asked on the loopback.
    let target = if parsed.ip().is_unspecified() {
        SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), parsed.port())
    } else {
        parsed
    };
    let ask = || -> std::io::Result<String> {
        let mut stream = TcpStream::connect_timeout(&target, timeout)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {target}\r\nConnection: close\r\n\r\n"
        )?;
        let mut answer = String::new();
        stream.read_to_string(&mut answer)?;
        Ok(answer)
    };
    let answer = ask().map_err(|e| format!("{target}{path}: {e}"))?;
    let status = answer.split_whitespace().nth(1).unwrap_or("");
    if status == "200" {
        return Ok(());
    }
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b.trim());
    Err(format!("{target}{path}: {status} {body}"))
}
