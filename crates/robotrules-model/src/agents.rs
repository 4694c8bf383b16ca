//! Well-known crawlers as data: the default list (`data/agents.tsv`: product token, operator,
//! purpose), which the survey asks about and lint reads for the search engines' crawlers,
//! and lists given by the user, one crawler a line.

use std::fmt;

/// The default list, `data/agents.tsv`: a product token, its operator and its purpose per
/// line, tab-separated, after a header line; `#` starts a comment line.
pub const DEFAULT_AGENTS_TSV: &str = include_str!("../data/agents.tsv");

/// What a crawler's operator says it fetches for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Purpose {
    /// Collects pages to train models.
    Training,
    /// Indexes pages for a search or answer engine.
    Search,
    /// Fetches a page because a person asked for it.
    UserTriggered,
    /// Not said (a list given by the user without a purpose column).
    Unknown,
}

impl Purpose {
    /// The name used in the data file and in reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Purpose::Training => "training",
            Purpose::Search => "search",
            Purpose::UserTriggered => "user-triggered",
            Purpose::Unknown => "",
        }
    }

    fn parse(text: &str) -> Option<Purpose> {
        match text {
            "training" => Some(Purpose::Training),
            "search" => Some(Purpose::Search),
            "user-triggered" => Some(Purpose::UserTriggered),
            "" => Some(Purpose::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for Purpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One crawler of a survey.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agent {
    /// The name asked about (a product token, as `robotrules check` takes it).
    pub name: String,
    /// Who runs it (empty when not said).
    pub operator: String,
    /// What for.
    pub purpose: Purpose,
}

impl Agent {
    /// A crawler known by name only.
    pub fn named(name: impl Into<String>) -> Agent {
        Agent {
            name: name.into(),
            operator: String::new(),
            purpose: Purpose::Unknown,
        }
    }
}

/// A line of an agent list that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct AgentListError {
    /// 1-based line number.
    pub line: usize,
    /// Why.
    pub reason: String,
}

/// The default list ([`DEFAULT_AGENTS_TSV`]).
pub fn default_agents() -> Vec<Agent> {
    // The data file is tested to read without error (see the tests below).
    parse_agent_list(DEFAULT_AGENTS_TSV).unwrap_or_default()
}

/// Reads an agent list: per line a name, then optionally an operator and a purpose
/// (`training`, `search`, `user-triggered`), tab-separated. Blank lines, `#` comment lines
/// and a header line starting `agent<TAB>` are skipped. A name listed twice is kept once.
///
/// # Errors
/// An unknown purpose, or more than three fields.
pub fn parse_agent_list(text: &str) -> Result<Vec<Agent>, AgentListError> {
    let mut agents: Vec<Agent> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
        if fields.first() == Some(&"agent") && fields.len() > 1 {
            continue;
        }
        let error = |reason: String| AgentListError {
            line: i + 1,
            reason,
        };
        if fields.len() > 3 {
            return Err(error(format!(
                "{} fields; a line is NAME[<TAB>OPERATOR[<TAB>PURPOSE]]",
                fields.len()
            )));
        }
        let name = fields.first().copied().unwrap_or_default();
        let purpose_text = fields.get(2).copied().unwrap_or_default();
        let purpose = Purpose::parse(purpose_text).ok_or_else(|| {
            error(format!(
                "purpose {purpose_text:?} is not training, search or user-triggered"
            ))
        })?;
        if agents.iter().any(|a| a.name == name) {
            continue;
        }
        agents.push(Agent {
            name: name.to_owned(),
            operator: fields.get(1).copied().unwrap_or_default().to_owned(),
            purpose,
        });
    }
    Ok(agents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_list_reads_and_has_the_baselines_and_the_ai_crawlers() {
        let agents = parse_agent_list(DEFAULT_AGENTS_TSV).unwrap();
        assert_eq!(agents, default_agents());
        let names: Vec<&str> = agents.iter().map(|a| a.name.as_str()).collect();
        for name in [
            "GPTBot",
            "ChatGPT-User",
            "OAI-SearchBot",
            "ClaudeBot",
            "Claude-User",
            "anthropic-ai",
            "CCBot",
            "Google-Extended",
            "Applebot-Extended",
            "PerplexityBot",
            "Bytespider",
            "meta-externalagent",
            "Amazonbot",
            "cohere-ai",
            "Diffbot",
            "Googlebot",
            "Bingbot",
        ] {
            assert!(names.contains(&name), "{name} missing");
        }
        assert!(agents
            .iter()
            .all(|a| !a.operator.is_empty() && a.purpose != Purpose::Unknown));
    }

    #[test]
    fn user_lists_take_names_alone_and_refuse_unknown_purposes() {
        let agents =
            parse_agent_list("# mine\n\nFooBot\nBarBot\tBar Inc\tsearch\nFooBot\n").unwrap();
        assert_eq!(agents.len(), 2);
        assert_eq!(agents[0], Agent::named("FooBot"));
        assert_eq!(agents[1].purpose, Purpose::Search);
        let error = parse_agent_list("FooBot\tFoo\tfun\n").unwrap_err();
        assert_eq!(error.line, 1);
        assert!(error.reason.contains("\"fun\""), "{error}");
    }
}
