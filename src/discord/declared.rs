//! The declared commands ([`crate::commands::declare`]) made into what Discord and poise
//! need: the registration sent to Discord ([`registration`]), poise's commands that hand an
//! interaction with its declaration to the [`Route`] they are given ([`commands`]), and the
//! typed options read back as the command layer's text ([`given`]). Nothing here names a
//! command: every slash command is the same code reading different data.

use poise::serenity_prelude as serenity;
use serenity::{
    CommandOptionType, CreateCommand, CreateCommandOption, Permissions, ResolvedOption,
    ResolvedValue,
};

use super::context::{BotError, Ctx, Data};
use crate::commands::declare::{self, Declared, Entry, Kind, Opt, Who};

/// Every declared command as Discord registers it.
pub fn registration() -> Vec<CreateCommand> {
    declare::entries()
        .into_iter()
        .map(|e| {
            let mut c = CreateCommand::new(e.name()).description(description(e));
            match e {
                Entry::One(d) => {
                    for o in d.options.iter().filter(|o| o.on_discord()) {
                        c = c.add_option(option(o));
                    }
                    if d.who == Who::Admins {
                        c = c.default_member_permissions(Permissions::MANAGE_GUILD);
                    }
                }
                Entry::Group { subs, .. } => {
                    for d in *subs {
                        c = c.add_option(subcommand(d));
                    }
                }
            }
            c
        })
        .collect()
}

fn description(e: &Entry) -> &'static str {
    match e {
        Entry::One(d) => d.description,
        Entry::Group { description, .. } => description,
    }
}

/// The last word of a command's path: its name on Discord.
fn leaf(d: &Declared) -> &'static str {
    d.path.rsplit(' ').next().unwrap_or(d.path)
}

fn subcommand(d: &Declared) -> CreateCommandOption {
    let mut s = CreateCommandOption::new(CommandOptionType::SubCommand, leaf(d), d.description);
    for o in d.options.iter().filter(|o| o.on_discord()) {
        s = s.add_sub_option(option(o));
    }
    s
}

fn option(o: &Opt) -> CreateCommandOption {
    let kind = match o.kind {
        Kind::Text | Kind::TextMax(_) | Kind::Line => CommandOptionType::String,
        Kind::Int { .. } | Kind::Choice(_) => CommandOptionType::Integer,
        Kind::Bool => CommandOptionType::Boolean,
        Kind::User => CommandOptionType::User,
        Kind::Role => CommandOptionType::Role,
    };
    let mut b = CreateCommandOption::new(kind, o.name, o.description)
        .required(o.required)
        .set_autocomplete(o.moves);
    match o.kind {
        Kind::Choice(choices) => {
            // Discord sends the choice's index; `given` reads it back.
            for (i, c) in choices.iter().enumerate() {
                b = b.add_int_choice_localized(*c, i as i32, std::iter::empty::<(&str, &str)>());
            }
        }
        Kind::Int { min, max } => {
            // Discord's numbers are doubles: exact up to 2^53.
            #[allow(clippy::cast_precision_loss)]
            {
                b = b.min_number_value(min as f64).max_number_value(max as f64);
            }
        }
        Kind::TextMax(n) => b = b.max_length(n),
        _ => {}
    }
    b
}

/// Where every declared command goes once its options are read: handed in by the module
/// that wires the front end (its `run_declared`), so that this file names none above it.
pub type Route = for<'a> fn(
    Ctx<'a>,
    &'static Declared,
    Vec<(&'static str, String)>,
) -> poise::BoxFuture<'a, Result<(), BotError>>;

/// What a poise command keeps: its declaration and where it goes.
struct Routed {
    declared: &'static Declared,
    route: Route,
}

/// poise's commands, one per declaration: each hands its interactions to `route` with its
/// declaration, and the options declared to complete from the caller's legal moves do.
pub fn commands(route: Route) -> Vec<poise::Command<Data, BotError>> {
    declare::entries()
        .into_iter()
        .map(|e| match e {
            Entry::One(d) => leaf_command(d, d.path, route),
            Entry::Group {
                name,
                description,
                subs,
            } => poise::Command {
                name: (*name).into(),
                qualified_name: (*name).into(),
                identifying_name: (*name).into(),
                description: Some((*description).into()),
                subcommands: subs
                    .iter()
                    .map(|d| leaf_command(d, leaf(d), route))
                    .collect(),
                subcommand_required: true,
                slash_action: Some(run),
                ..Default::default()
            },
        })
        .collect()
}

fn leaf_command(
    d: &'static Declared,
    name: &'static str,
    route: Route,
) -> poise::Command<Data, BotError> {
    poise::Command {
        name: name.into(),
        qualified_name: d.path.into(),
        identifying_name: d.path.into(),
        description: Some(d.description.into()),
        parameters: d
            .options
            .iter()
            .filter(|o| o.on_discord())
            .map(|o| poise::CommandParameter {
                name: o.name.into(),
                name_localizations: Vec::new().into(),
                description: Some(o.description.into()),
                description_localizations: Vec::new().into(),
                required: o.required,
                channel_types: None,
                choices: Vec::new().into(),
                // Registration is ours (`registration`), so poise needs no type here.
                type_setter: None,
                autocomplete_callback: if o.moves {
                    Some(|ctx, partial| Box::pin(super::slash::legal_moves(ctx, partial)))
                } else {
                    None
                },
                __non_exhaustive: (),
            })
            .collect(),
        slash_action: Some(run),
        custom_data: Box::new(Routed { declared: d, route }),
        ..Default::default()
    }
}

/// Every slash command's action: its declaration's options read, then routed.
fn run(
    ctx: poise::ApplicationContext<'_, Data, BotError>,
) -> poise::BoxFuture<'_, Result<(), poise::FrameworkError<'_, Data, BotError>>> {
    Box::pin(async move {
        let Some(routed) = ctx.command().custom_data.downcast_ref::<Routed>() else {
            // A group's own action: Discord always names a subcommand.
            return Ok(());
        };
        let d = routed.declared;
        let given = given(d, ctx.args);
        (routed.route)(ctx, d, given)
            .await
            .map_err(|error| poise::FrameworkError::new_command(ctx.into(), error))
    })
}

/// The options given, by name, as the command layer reads them: users as `@id`, roles by
/// id, choices by their value, numbers and booleans as written.
pub fn given(d: &Declared, args: &[ResolvedOption<'_>]) -> Vec<(&'static str, String)> {
    d.options
        .iter()
        .filter_map(|o| {
            let arg = args.iter().find(|a| a.name == o.name)?;
            let text = match (&arg.value, o.kind) {
                (ResolvedValue::Integer(i), Kind::Choice(c)) => {
                    let shown = usize::try_from(*i).ok().and_then(|i| c.get(i))?;
                    Opt::choice_value(shown).to_string()
                }
                (ResolvedValue::Integer(i), _) => i.to_string(),
                (ResolvedValue::String(s), _) => (*s).to_string(),
                (ResolvedValue::Boolean(b), _) => b.to_string(),
                (ResolvedValue::User(u, _), _) => format!("@{}", u.id),
                (ResolvedValue::Role(r), _) => r.id.to_string(),
                (ResolvedValue::Unresolved(serenity::Unresolved::User(id)), _) => {
                    format!("@{id}")
                }
                (ResolvedValue::Unresolved(serenity::Unresolved::RoleId(id)), _) => id.to_string(),
                (other, _) => {
                    tracing::warn!(option = o.name, value = ?other, "option of an unexpected type");
                    return None;
                }
            };
            Some((o.name, text))
        })
        .collect()
}

/// The users named by a command's user options (for their display names).
pub fn users<'a>(args: &'a [ResolvedOption<'a>]) -> impl Iterator<Item = &'a serenity::User> {
    args.iter().filter_map(|a| match a.value {
        ResolvedValue::User(u, _) => Some(u),
        _ => None,
    })
}
