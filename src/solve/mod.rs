//! Listing solutions: every board, in lexicographic order of its columns, on every core.
//!
//! A solution is written as its column vector: `cols[r]` is the column of the queen in row `r`,
//! both 0-based. The listing is split by a plain prefix (the queens of the first rows, no
//! symmetry): in lexicographic order, the prefixes are *parts* whose solutions follow each other in
//! the same order. The parts at the front of a bounded queue run on a rayon pool, each into its own
//! buffer of bytes already formatted, while the writer writes the finished buffers at the front in
//! order. A part whose buffer fills up (`PART_BYTES`) pauses until the writer has taken it, so
//! memory stays bounded by the queue length times the buffer size, whatever n is.
//!
//! ```
//! let first: Vec<Vec<u8>> = nqueens::solve::solutions(4).unwrap().collect();
//! assert_eq!(first, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
//! ```

pub(crate) mod format;
pub(crate) mod trace;
mod walker;

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

pub use format::{Format, Renderer};
pub use trace::trace;
pub use walker::Walker;

use crate::dihedral::is_canonical;
use crate::Error;

/// The parts are cut so that each holds about this many solutions on average.
pub(crate) const SOLUTIONS_PER_PART: u128 = 512;
/// The most parts the choice of depth aims at (their prefixes are never all stored).
pub(crate) const MAX_PARTS: u128 = 1 << 24;
/// The queue of parts holds about this many bytes of expected output (4 to 64 parts per thread).
pub(crate) const QUEUE_BYTES: usize = 4 << 20;
/// A part whose output reaches this many bytes pauses until the output is written.
pub(crate) const PART_BYTES: usize = 256 << 10;

/// Every solution of the `n`-board in lexicographic order, found one by one on this thread.
pub fn solutions(n: u32) -> Result<Solutions, Error> {
    crate::check_n(n)?;
    let walker = Walker::new(n, &[], n as usize).expect("the empty prefix is legal");
    Ok(Solutions { walker })
}

/// The iterator [`solutions`] returns. [`Walker`] gives the same without an allocation each.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Solutions {
    walker: Walker,
}

impl Iterator for Solutions {
    type Item = Vec<u8>;
    fn next(&mut self) -> Option<Vec<u8>> {
        self.walker.next_placement().map(<[u8]>::to_vec)
    }
}

/// Calls `visit` with every solution of the `n`-board, from `threads` threads in no particular
/// order, and returns how many there were.
pub fn for_each(n: u32, threads: usize, visit: impl Fn(&[u8]) + Sync) -> Result<u64, Error> {
    let listing = Listing::new(
        n,
        &ListOptions {
            threads,
            ..ListOptions::default()
        },
    )?;
    Ok(listing.pool.install(|| {
        listing
            .prefixes()
            .par_bridge()
            .map(|prefix| {
                let mut walker = Walker::new(n, &prefix, n as usize).expect("a legal prefix");
                let mut found = 0;
                while let Some(cols) = walker.next_placement() {
                    visit(cols);
                    found += 1;
                }
                found
            })
            .sum()
    }))
}

/// What to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListOptions {
    /// Worker threads; the default is every logical core.
    pub threads: usize,
    /// Stop after this many solutions.
    pub limit: Option<u64>,
    /// Only the canonical member of each symmetry class (the least of its 8 images).
    pub unique: bool,
}

impl ListOptions {
    /// These options with `threads` worker threads.
    pub fn with_threads(self, threads: usize) -> ListOptions {
        ListOptions { threads, ..self }
    }

    /// These options stopping after `limit` solutions, if any.
    pub fn with_limit(self, limit: Option<u64>) -> ListOptions {
        ListOptions { limit, ..self }
    }

    /// These options listing only the canonical member of each symmetry class, if `unique`.
    pub fn with_unique(self, unique: bool) -> ListOptions {
        ListOptions { unique, ..self }
    }
}

impl Default for ListOptions {
    fn default() -> Self {
        ListOptions {
            threads: crate::default_threads(),
            limit: None,
            unique: false,
        }
    }
}

/// A listing of the solutions of one board size, ready to be written.
#[derive(Debug, Clone)]
pub struct Listing {
    n: u32,
    options: ListOptions,
    depth: usize,
    /// Its threads, started when it is made: threads that cannot start (a tight memory limit)
    /// are refused then, in their own words, not as a failure to write a listing never begun.
    pool: std::sync::Arc<rayon::ThreadPool>,
}

/// Formatted solutions, with the end of each record.
#[derive(Debug, Default)]
struct Chunk {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

/// The solutions below one prefix, being listed: the search where it stopped, and its output
/// not yet handed to the writer.
#[derive(Debug)]
struct Part {
    walker: Walker,
    renderer: Renderer,
    output: Chunk,
    done: bool,
}

/// The output at the front of the queue, in order: every finished part's, and the first
/// unfinished part's so far (that part goes on in the next round).
fn take_ready(queue: &mut VecDeque<Part>) -> Vec<Chunk> {
    let mut ready = Vec::new();
    while let Some(front) = queue.front_mut() {
        ready.push(std::mem::take(&mut front.output));
        if !front.done {
            break;
        }
        queue.pop_front();
    }
    ready
}

impl Listing {
    /// Checks the options and chooses how to cut the listing into parts.
    pub fn new(n: u32, options: &ListOptions) -> Result<Listing, Error> {
        crate::check_n(n)?;
        if options.threads == 0 {
            return Err(Error::NoThreads);
        }
        Ok(Listing {
            n,
            options: *options,
            depth: part_depth(n, options.limit),
            pool: std::sync::Arc::new(crate::system::pool(options.threads)?),
        })
    }

    /// Rows pre-placed by each part's prefix.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Writes the solutions to `out` in `format`, header and footer included, and returns how
    /// many were written. Stops early at the limit; an error writing stops the workers too.
    ///
    /// Each round, the parts at the front of the queue that have no output waiting run on the
    /// pool while the output of the last round is written; then the finished output at the front
    /// is handed to the writer.
    pub fn write<W: Write + Send>(&self, format: Format, out: &mut W) -> io::Result<u64> {
        let pool = &self.pool;
        let stop = AtomicBool::new(false);
        let renderer = Renderer::new(format, self.n as usize);
        let mut sink = Sink {
            out,
            written: 0,
            limit: self.options.limit.unwrap_or(u64::MAX),
            skip: format.first_record_skip(),
        };
        sink.out.write_all(format.header())?;
        let queue_len = self.queue_len(format);
        let mut prefixes = self.prefixes();
        let mut queue: VecDeque<Part> = VecDeque::with_capacity(queue_len);
        let mut ready: Vec<Chunk> = Vec::new();
        pool.install(|| -> io::Result<()> {
            loop {
                let room = queue_len - queue.len();
                queue.extend(prefixes.by_ref().take(room).map(|prefix| Part {
                    walker: Walker::new(self.n, &prefix, self.n as usize).expect("a legal prefix"),
                    renderer: renderer.clone(),
                    output: Chunk::default(),
                    done: false,
                }));
                let (wrote, ()) = rayon::join(
                    || sink.write(&ready, &stop),
                    || {
                        queue
                            .par_iter_mut()
                            .with_max_len(1)
                            .for_each(|part| self.run(part, &stop))
                    },
                );
                wrote?;
                if queue.is_empty() || stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                ready = take_ready(&mut queue);
            }
        })?;
        sink.out.write_all(format.footer())?;
        sink.out.flush()?;
        Ok(sink.written)
    }

    /// Lists the solutions of `part` into its output until it is done, or its output is
    /// [`PART_BYTES`] long or at the limit, or the listing stops. Does nothing while the part
    /// still has output waiting.
    fn run(&self, part: &mut Part, stop: &AtomicBool) {
        if part.done || !part.output.ends.is_empty() || stop.load(Ordering::Relaxed) {
            return;
        }
        let limit = self.options.limit.unwrap_or(u64::MAX);
        let out = &mut part.output;
        while let Some(cols) = part.walker.next_placement() {
            if self.options.unique && !is_canonical(cols) {
                continue;
            }
            out.bytes.extend_from_slice(part.renderer.render(cols));
            out.ends.push(out.bytes.len());
            if out.bytes.len() >= PART_BYTES
                || out.ends.len() as u64 >= limit
                || stop.load(Ordering::Relaxed)
            {
                return;
            }
        }
        part.done = true;
    }

    /// The parts' prefixes in order. With `unique`, only those whose first queen is in the left
    /// half (or the middle): the mirror image of any other solution is smaller.
    fn prefixes(&self) -> impl Iterator<Item = Vec<u8>> + Send {
        let mut walker = Walker::new(self.n, &[], self.depth).expect("the empty prefix is legal");
        let half = ((self.n - 1) / 2) as u8;
        let unique = self.options.unique;
        std::iter::from_fn(move || walker.next_placement().map(<[u8]>::to_vec))
            .take_while(move |p| !unique || p.first().is_none_or(|&c| c <= half))
    }

    /// Parts in the queue: about [`QUEUE_BYTES`] of expected output, 4 to 64 per thread.
    fn queue_len(&self, format: Format) -> usize {
        let per_part = estimate(self.n, self.options.limit).clamp(1, SOLUTIONS_PER_PART) as usize;
        let bytes = per_part * format.record_len(self.n as usize);
        let threads = self.options.threads;
        (QUEUE_BYTES / bytes).clamp(4 * threads, 64 * threads)
    }
}

/// Where finished chunks go, in order, up to the limit.
struct Sink<'a, W> {
    out: &'a mut W,
    written: u64,
    limit: u64,
    /// Bytes still to drop from the front of the next record.
    skip: usize,
}

impl<W: Write> Sink<'_, W> {
    /// Writes `chunks` in order; raises `stop` at the limit or on an error.
    fn write(&mut self, chunks: &[Chunk], stop: &AtomicBool) -> io::Result<()> {
        let result = chunks.iter().try_for_each(|chunk| {
            let room = usize::try_from(self.limit - self.written).unwrap_or(usize::MAX);
            let take = chunk.ends.len().min(room);
            if take > 0 {
                self.out
                    .write_all(&chunk.bytes[self.skip..chunk.ends[take - 1]])?;
                self.skip = 0;
                self.written += take as u64;
            }
            Ok(())
        });
        if result.is_err() || self.written == self.limit {
            stop.store(true, Ordering::Relaxed);
        }
        result
    }
}

/// How many solutions the listing will write at most: the known total, capped by the limit.
fn estimate(n: u32, limit: Option<u64>) -> u128 {
    let total = crate::truth::known::known(n).map_or(u128::MAX, |k| k.total);
    total.min(limit.map_or(u128::MAX, u128::from))
}

/// The prefix depth: the shallowest that cuts the listing into parts of about
/// [`SOLUTIONS_PER_PART`] solutions (counting at most [`MAX_PARTS`] prefixes), and at least
/// `n - 14` so that on large boards a part rarely outgrows [`PART_BYTES`]. It depends on `n` and
/// the limit only, never on the thread count.
fn part_depth(n: u32, limit: Option<u64>) -> usize {
    let target = (estimate(n, limit) / SOLUTIONS_PER_PART).clamp(1, MAX_PARTS) as usize;
    let prefixes = |depth: usize| {
        let mut w = Walker::new(n, &[], depth).expect("the empty prefix is legal");
        std::iter::from_fn(|| w.next_placement().map(|_| ()))
            .take(target)
            .count()
    };
    let floor = (n as usize).saturating_sub(14);
    (floor.max(1)..n as usize)
        .find(|&d| prefixes(d) >= target)
        .unwrap_or(n as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_grows_with_n_and_shrinks_with_a_limit() {
        assert_eq!(part_depth(1, None), 1);
        assert_eq!(part_depth(8, None), 1);
        assert_eq!(part_depth(16, None), 5);
        assert_eq!(part_depth(16, Some(10)), 2);
        assert_eq!(part_depth(27, Some(10)), 13);
        assert!(part_depth(27, None) <= 27);
    }

    #[test]
    fn a_limit_stops_the_listing() {
        let listing = Listing::new(
            8,
            &ListOptions {
                limit: Some(5),
                threads: 2,
                ..ListOptions::default()
            },
        )
        .unwrap();
        let mut out = Vec::new();
        assert_eq!(listing.write(Format::Columns, &mut out).unwrap(), 5);
        let lines: Vec<_> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[0], "0 4 7 5 2 6 1 3");
    }

    #[test]
    fn parts_that_outgrow_their_buffer_pause_and_resume_in_order() {
        // n = 18 with a limit splits after 4 rows: the first parts have far more than
        // PART_BYTES of boards, so they pause while the writer catches up.
        let k = 3000;
        let options = ListOptions {
            limit: Some(k),
            threads: 3,
            ..ListOptions::default()
        };
        let mut out = Vec::new();
        let written = Listing::new(18, &options)
            .unwrap()
            .write(Format::Board, &mut out)
            .unwrap();
        assert_eq!(written, k);
        assert!(out.len() > 3 * PART_BYTES);
        let first: Vec<Vec<u8>> = solutions(18).unwrap().take(k as usize).collect();
        let mut expected = Vec::new();
        Format::Board
            .write_all(18, first.iter().map(Vec::as_slice), &mut expected)
            .unwrap();
        assert!(out == expected);
    }
}
