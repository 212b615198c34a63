# gomoku-bot in a small runtime image. Build: docker build -t gomoku-bot .
# Run:   docker run -d --name gomoku-bot -e DISCORD_TOKEN=... -v gomoku-data:/data gomoku-bot
# Stop:  docker stop -t 25 gomoku-bot   (the bot drains for up to 20 s; Docker's default is 10)
# The SQLite database lives on the /data volume; migrations are applied at start.

FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
# Dependencies first, so that code changes do not rebuild them.
COPY Cargo.toml Cargo.lock ./
COPY benches benches
COPY crates crates
RUN mkdir src && echo 'fn main() {}' > src/main.rs && touch src/lib.rs src/gomoku_core.rs \
    && cargo build --release --locked --bin gomoku-bot \
    && rm -rf src
COPY src src
COPY migrations migrations
COPY assets assets
RUN touch src/main.rs src/lib.rs src/gomoku_core.rs && cargo build --release --locked --bin gomoku-bot

FROM debian:bookworm-slim
# TLS roots are built into the binary (webpki roots); nothing else is needed at run time.
RUN useradd --system --uid 10001 --home-dir /data gomoku \
    && mkdir /data && chown gomoku /data
COPY --from=build /src/target/release/gomoku-bot /usr/local/bin/gomoku-bot
USER gomoku
WORKDIR /data
VOLUME /data
ENV DATABASE_URL=sqlite:///data/gomoku-bot.db
# /metrics, /healthz and /readyz (README.md, "Operating the bot"). Publish the port only to
# whatever scrapes it.
ENV METRICS_LISTEN=0.0.0.0:9100
EXPOSE 9100
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["gomoku-bot", "healthcheck"]
# SIGTERM drains for up to shutdown_grace_seconds (20): stop with `docker stop -t 25`.
STOPSIGNAL SIGTERM
ENTRYPOINT ["gomoku-bot"]
CMD ["run", "--config", "/data/config.toml"]
