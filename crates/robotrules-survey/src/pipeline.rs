//! Running a survey over many inputs on every core, streaming: reader threads (one per input,
//! a few inputs ahead) read records and inflate gzip members into batches; the batches are
//! surveyed in parallel (rayon) and handed back in input order; memory holds a bounded number
//! of batches, whatever the input's size.
//!
//! Redirects (RFC 9309 §2.3.1.2) are the exception: a redirect's rows wait until the end,
//! because its target may come later in the input. Then the chains are followed through the
//! redirects seen (at most [`RFC9309_MIN_REDIRECTS`](robotrules_fetch::status::RFC9309_MIN_REDIRECTS)), and the WARC inputs are read a second time for
//! the targets' captures only (the first capture of each URL, in input order). A target not in
//! the input leaves the redirect's reach `unknown`. Memory grows with the number of
//! redirects (their capture columns are kept), not with the number of captures.

use std::collections::{HashMap, HashSet};
use std::io;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver};

use rayon::prelude::*;

use crate::input::{read_input, Input, Raw, Reading};
use crate::reach::Reach;
use robotrules_fetch::status::RFC9309_MIN_REDIRECTS;
use crate::survey::{url_key, PerAgent, Survey, Surveyed};
use crate::tally::Tally;
use crate::warc::Malformed;

/// Records per batch.
const BATCH: usize = 256;

/// What a run reports, in input order.
#[derive(Debug)]
pub enum Event<'a, T> {
    /// Reading of an input begins (its batches follow).
    Started(&'a Path),
    /// An input could not be opened or listed (the others are still surveyed).
    Failed(&'a Path, io::Error),
    /// A record of a file could not be read (reading goes on).
    Malformed(&'a str, Malformed),
    /// An entry of a directory was not read: its path and why (`hidden`).
    Ignored(&'a str, &'static str),
    /// Surveyed captures, mapped by the caller's function, and their tally.
    Batch(T, Tally),
}

/// How a run goes.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// Threads surveying batches (and inputs read ahead); at least 1.
    pub threads: usize,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            threads: std::thread::available_parallelism().map_or(1, usize::from),
        }
    }
}

/// One batch surveyed.
struct Done {
    surveyed: Vec<Surveyed>,
    redirects: Vec<Surveyed>,
    malformed: Vec<(std::sync::Arc<str>, Malformed)>,
    ignored: Vec<(std::sync::Arc<str>, &'static str)>,
    skipped: u64,
}

/// Surveys `inputs` with `survey`: each batch of surveyed captures is mapped by `map` (on a
/// worker thread: format rows there) and handed to `on` with its tally, in input order; then
/// the redirects, once their targets are known. When `on` returns [`ControlFlow::Break`] (the
/// reader of the rows has gone away), reading stops and the run ends.
///
/// # Errors
/// When the thread pool cannot be started.
pub fn run<T: Send>(
    inputs: &[Input],
    survey: &Survey,
    options: RunOptions,
    map: impl Fn(&[Surveyed]) -> T + Sync,
    mut on: impl FnMut(Event<'_, T>) -> ControlFlow<()>,
) -> io::Result<()> {
    let threads = options.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(io::Error::other)?;
    let mut pending: Vec<Surveyed> = Vec::new();
    let work = |batch: Vec<Raw>| -> Done {
        let mut done = Done {
            surveyed: Vec::with_capacity(batch.len()),
            redirects: Vec::new(),
            malformed: Vec::new(),
            ignored: Vec::new(),
            skipped: 0,
        };
        for raw in batch {
            match raw.read() {
                Reading::Capture(capture) => {
                    let surveyed = survey.capture(&capture);
                    if surveyed.awaits_target() {
                        done.redirects.push(surveyed);
                    } else {
                        done.surveyed.push(surveyed);
                    }
                }
                Reading::Malformed(file, error) => done.malformed.push((file, error)),
                Reading::Skipped => done.skipped += 1,
                Reading::Ignored(path, why) => done.ignored.push((path, why)),
            }
        }
        done
    };
    let flow = read_all(
        inputs,
        threads,
        &pool,
        &|_| true,
        &work,
        &mut |event| match event {
            Pass::Started(path) => on(Event::Started(path)),
            Pass::Failed(path, error) => on(Event::Failed(path, error)),
            Pass::Done(done) => {
                let mut tally = Tally {
                    skipped: done.skipped,
                    malformed: done.malformed.len() as u64,
                    ignored: done.ignored.len() as u64,
                    ..Tally::default()
                };
                for (file, error) in done.malformed {
                    on(Event::Malformed(&file, error))?;
                }
                for (path, why) in done.ignored {
                    on(Event::Ignored(&path, why))?;
                }
                for s in &done.surveyed {
                    tally.add(s);
                }
                pending.extend(done.redirects);
                on(Event::Batch(map(&done.surveyed), tally))
            }
        },
    );
    if flow.is_break() || pending.is_empty() {
        return Ok(());
    }
    // Follow each redirect through the redirects seen to the URL whose capture decides.
    let hops: HashMap<String, String> = pending
        .iter()
        .filter_map(|s| Some((url_key(&s.facts.url), s.facts.redirect.clone()?)))
        .collect();
    let finals: Vec<Option<String>> = pending
        .iter()
        .map(|s| {
            let mut target = s.facts.redirect.clone()?;
            let mut seen = HashSet::from([url_key(&s.facts.url)]);
            for _ in 1..RFC9309_MIN_REDIRECTS {
                match hops.get(&target) {
                    Some(next) if seen.insert(target.clone()) => target = next.clone(),
                    // A loop: unavailable, as the fetch client reads it.
                    Some(_) => return None,
                    None => return Some(target),
                }
            }
            // Still redirecting after five hops: unavailable (RFC 9309 §2.3.1.2).
            (!hops.contains_key(&target)).then_some(target)
        })
        .collect();
    let wanted: HashSet<&str> = finals.iter().flatten().map(String::as_str).collect();
    let mut found: HashMap<String, PerAgent> = HashMap::new();
    let warcs: Vec<Input> = inputs
        .iter()
        .filter(|i| matches!(i, Input::Warc(_)))
        .cloned()
        .collect();
    let wanted_raw = |raw: &Raw| {
        raw.url()
            .is_some_and(|u| wanted.contains(url_key(u).as_str()))
    };
    let targets = |batch: Vec<Raw>| -> Done {
        let surveyed = batch
            .into_iter()
            .filter_map(|raw| match raw.read() {
                Reading::Capture(capture) => Some(survey.capture(&capture)),
                _ => None,
            })
            .collect();
        Done {
            surveyed,
            redirects: Vec::new(),
            malformed: Vec::new(),
            ignored: Vec::new(),
            skipped: 0,
        }
    };
    // This pass reports nothing to `on`, so it never breaks.
    let _ = read_all(
        &warcs,
        threads,
        &pool,
        &wanted_raw,
        &targets,
        &mut |event| {
            if let Pass::Done(done) = event {
                for s in done.surveyed {
                    found.entry(url_key(&s.facts.url)).or_insert(s.per_agent);
                }
            }
            ControlFlow::Continue(())
        },
    );
    for (mut surveyed, target) in pending.into_iter().zip(finals) {
        surveyed.per_agent = match target {
            None => survey.all(Reach::Open),
            Some(target) => match found.get(&target) {
                Some(verdicts) if verdicts.agents.iter().all(|a| a.reach != Reach::Unknown) => {
                    verdicts.clone()
                }
                _ => survey.all(Reach::Unknown),
            },
        };
        let mut tally = Tally::default();
        tally.add(&surveyed);
        let batch = [surveyed];
        if on(Event::Batch(map(&batch), tally)).is_break() {
            break;
        }
    }
    Ok(())
}

/// What one pass over the inputs reports.
enum Pass<'a> {
    Started(&'a Path),
    Failed(&'a Path, io::Error),
    Done(Done),
}

/// One pass over `inputs`: the records `keep` accepts, in batches, through `work` on `pool`,
/// reported in order, until `report` breaks (the readers then stop: their channels close).
fn read_all<'a>(
    inputs: &'a [Input],
    threads: usize,
    pool: &rayon::ThreadPool,
    keep: &(dyn Fn(&Raw) -> bool + Sync),
    work: &(dyn Fn(Vec<Raw>) -> Done + Sync),
    report: &mut dyn FnMut(Pass<'a>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    std::thread::scope(|scope| {
        let mut readers: std::collections::VecDeque<(usize, Receiver<io::Result<Vec<Raw>>>)> =
            std::collections::VecDeque::new();
        let mut next_input = 0;
        let spawn = |readers: &mut std::collections::VecDeque<_>, next_input: &mut usize| {
            while readers.len() < threads && *next_input < inputs.len() {
                let i = *next_input;
                *next_input += 1;
                let (send, receive) = sync_channel::<io::Result<Vec<Raw>>>(threads * 2);
                let input = &inputs[i];
                scope.spawn(move || {
                    let mut batch = Vec::with_capacity(BATCH);
                    let result = read_input(input, |raw| {
                        if !keep(&raw) {
                            return true;
                        }
                        batch.push(raw);
                        if batch.len() == BATCH {
                            let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                            return send.send(Ok(full)).is_ok();
                        }
                        true
                    });
                    let _ = match result {
                        Ok(()) if batch.is_empty() => Ok(()),
                        Ok(()) => send.send(Ok(batch)),
                        Err(error) => send.send(Err(error)),
                    };
                });
                readers.push_back((i, receive));
            }
        };
        spawn(&mut readers, &mut next_input);
        let mut started = None;
        let window = threads * 2;
        loop {
            let mut batches = Vec::with_capacity(window);
            while batches.len() < window {
                let Some((i, receive)) = readers.front() else {
                    break;
                };
                let i = *i;
                if started != Some(i) {
                    started = Some(i);
                    report(Pass::Started(inputs[i].path()))?;
                }
                match receive.recv() {
                    Ok(Ok(batch)) => batches.push(batch),
                    Ok(Err(error)) => report(Pass::Failed(inputs[i].path(), error))?,
                    Err(_) => {
                        readers.pop_front();
                        spawn(&mut readers, &mut next_input);
                    }
                }
            }
            if batches.is_empty() {
                return ControlFlow::Continue(());
            }
            let done: Vec<Done> = pool.install(|| batches.into_par_iter().map(work).collect());
            for d in done {
                report(Pass::Done(d))?;
            }
        }
    })
}
