//! The entries of the commands that run without a game
//! ([`Run::Anywhere`](crate::commands::declare::Run::Anywhere)): a front end hands
//! over the declared [`Desk`], the caller and the server it was typed on, and gets the reply
//! (and, for the desks that draw one, the picture) without knowing which command it was. The
//! players' display names that pictures show are kept here too.

use std::collections::HashMap;

use super::Service;
use crate::commands::declare::Desk;
use crate::commands::{Caller, Command, Reply};

impl Service {
    /// Answers a command of no game through its `desk`, for `caller` on `server` (a Discord
    /// guild's id; `None`: a direct message), whose players have `vacation_days` a year.
    pub async fn answer_anywhere(
        &self,
        desk: Desk,
        caller: &Caller<'_>,
        cmd: &Command,
        server: Option<&str>,
        vacation_days: u32,
    ) -> Reply {
        match desk {
            Desk::MyGames => self.my_games_on(caller, server).await,
            Desk::Vacation => match server {
                None => Reply::refused(format!(
                    "vacation days belong to a server: use /{} in one of its channels",
                    cmd.name
                )),
                Some(server) => self.vacation_on(caller, cmd, server, vacation_days).await,
            },
            Desk::Rating => self.rating_on(caller, cmd, server).await,
            Desk::Leaderboard => self.leaderboard_on(cmd, server).await,
            Desk::Stats => self.stats_on(caller, cmd, server).await,
        }
    }

    /// [`Service::answer_anywhere`] for a front end without servers (the console, the
    /// benchmarks): every stored game counts, and the caller's vacations are kept on its one
    /// server, with `vacation_days` a year.
    pub async fn answer_here(
        &self,
        desk: Desk,
        caller: &Caller<'_>,
        cmd: &Command,
        vacation_days: u32,
    ) -> Reply {
        match desk {
            Desk::Vacation => self.vacation_on(caller, cmd, "", vacation_days).await,
            _ => {
                self.answer_anywhere(desk, caller, cmd, None, vacation_days)
                    .await
            }
        }
    }

    /// The picture a command of no game is answered with, drawn on a picture thread, players
    /// named as [`Service::player_names`] knows them; `None` (logged when it failed) when its
    /// desk draws none or it cannot be drawn: the answer then goes out as text only.
    pub async fn anywhere_picture(
        &self,
        desk: Desk,
        cmd: &Command,
        server: Option<&str>,
    ) -> Option<Vec<u8>> {
        if desk != Desk::Leaderboard {
            return None;
        }
        let names = self.player_names().await;
        let name = move |p: &str| names.get(p).cloned().unwrap_or_else(|| p.to_string());
        let view = self.leaderboard_picture_on(cmd, server, &name).await?;
        match self.cpu(move || crate::render::render_table(&view)).await {
            Ok((Ok(png), _)) => Some(png),
            Ok((Err(e), _)) => {
                tracing::warn!(error = %e, desk = ?desk, "picture not drawn");
                None
            }
            Err(e) => {
                tracing::error!(error = %e, desk = ?desk, "picture task failed");
                None
            }
        }
    }

    /// Remembers how players are called (`(user id, display name)`), for the pictures.
    pub async fn remember_names(&self, names: &[(String, String)]) {
        let Some(store) = self.store() else {
            return;
        };
        for (user, name) in names {
            if let Err(e) = store.set_meta(&format!("name:{user}"), name).await {
                tracing::warn!(error = %e, "player name not stored");
            }
        }
    }

    /// How players are called (meta `name:<user id>`, remembered by a front end for the
    /// commands declared [`remembers_names`](crate::commands::declare::Declared)); a player
    /// without one is shown by id by the pictures.
    pub async fn player_names(&self) -> HashMap<String, String> {
        let Some(store) = self.store() else {
            return HashMap::new();
        };
        match store.meta_with_prefix("name:").await {
            Ok(rows) => rows
                .into_iter()
                .filter_map(|(k, v)| Some((k.strip_prefix("name:")?.to_string(), v)))
                .collect(),
            Err(e) => {
                tracing::warn!(error = %e, "player names not read");
                HashMap::new()
            }
        }
    }
}
