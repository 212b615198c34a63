//! Operating the bot (issue 17): Prometheus metrics, health and readiness, graceful shutdown,
//! and logs.
//!
//! This module sits beside the layers, below all of them: any layer may record a metric
//! ([`metrics`]), and nothing here knows Discord, SQL or the rules. What the listener asks
//! (is the bot ready? refresh the gauges) is the [`server::Probe`] trait, implemented by the
//! Discord front, which knows the shards and the service.

pub mod healthcheck;
pub mod logs;
pub mod metrics;
pub mod server;
pub mod shutdown;
