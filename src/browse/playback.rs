//! Playing a recorded search step by step: the frames to show and the controls over them
//! (play, pause, step forward and back, speed).
//!
//! A [`Frame`] is what the screen shows for one event of a trace: the queens on the board after
//! it, the square it concerns and how to colour it, the attacking queen of a conflict, a
//! one-line explanation and the solver's arrays. [`Playback`] holds the frames of one recorded
//! search (cut at a limit, so memory stays bounded) and the position in it.

use std::time::Duration;

/// The delays between two steps while playing, slowest first.
pub const SPEEDS: [Duration; 7] = [
    Duration::from_millis(1000),
    Duration::from_millis(500),
    Duration::from_millis(250),
    Duration::from_millis(100),
    Duration::from_millis(50),
    Duration::from_millis(20),
    Duration::from_millis(5),
];

/// The speed a playback starts at.
const START_SPEED: usize = 3;

/// A square: (row, column).
pub type Square = (usize, usize);

/// How the square an event concerns is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A square examined.
    Tried,
    /// A square found attacked.
    Attacked,
    /// A queen just put down.
    Placed,
    /// A queen just taken back.
    Removed,
    /// A line given up on: the search backs up.
    Backtracked,
}

/// What the screen shows for one step of a search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frame {
    /// The step number, from 1.
    pub step: u64,
    /// The event's name (`try`, `conflict`, ...), or `nosolution` for the frame that ends a
    /// search without a solution: what the code panel highlights.
    pub kind: &'static str,
    /// The queens on the board after the step.
    pub queens: Vec<Square>,
    /// The square the step concerns, and how to show it.
    pub mark: Option<(Square, Mark)>,
    /// The queen attacking the square tried, for a conflict.
    pub attacker: Option<Square>,
    /// Whether the board is a solution (its queens are then coloured).
    pub solved: bool,
    /// What happened, in one line.
    pub text: String,
    /// The solver's arrays after the step (positions, and first-untried when it has one), as
    /// text: what a narrow terminal shows.
    pub arrays: String,
    /// The positions array after the step (`-1` for an empty line), indexed by `axis`.
    pub positions: Vec<isize>,
    /// The first-untried array after the step (the `backtrack` solver only).
    pub untried: Option<Vec<usize>>,
    /// The index the step changed or concerns (its column for `backtrack`, its row otherwise).
    pub changed: Option<usize>,
    /// What the arrays are indexed by: `row` or `column`.
    pub axis: &'static str,
}

/// A recorded search and where the viewer is in it.
#[derive(Debug, Clone)]
pub struct Playback {
    /// Which solver was recorded.
    pub algorithm: &'static str,
    frames: Vec<Frame>,
    /// Whether the recording stopped at its limit before the search ended.
    pub cut: bool,
    at: usize,
    playing: bool,
    speed: usize,
}

impl Playback {
    /// A playback of `frames`, paused on the first; `cut` says the recording was cut short.
    pub fn new(algorithm: &'static str, frames: Vec<Frame>, cut: bool) -> Self {
        Playback {
            algorithm,
            frames,
            cut,
            at: 0,
            playing: false,
            speed: START_SPEED,
        }
    }

    /// The frame shown, if the recording has any.
    pub fn frame(&self) -> Option<&Frame> {
        self.frames.get(self.at)
    }

    /// Every frame, in order.
    #[cfg(test)]
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The position (from 0) of the frame shown.
    pub fn position(&self) -> usize {
        self.at
    }

    /// How many frames there are.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether there is nothing to play.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Whether the playback advances by itself.
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// The delay between two steps while playing.
    pub fn delay(&self) -> Duration {
        SPEEDS[self.speed]
    }

    /// Shows the next step; stops playing on the last one.
    pub fn step_forward(&mut self) {
        if self.at + 1 < self.frames.len() {
            self.at += 1;
        }
        if self.at + 1 >= self.frames.len() {
            self.playing = false;
        }
    }

    /// Stops playing.
    pub fn pause(&mut self) {
        self.playing = false;
    }

    /// Shows the previous step, and pauses.
    pub fn step_back(&mut self) {
        self.playing = false;
        self.at = self.at.saturating_sub(1);
    }

    /// Goes to the first step, and pauses.
    pub fn rewind(&mut self) {
        self.playing = false;
        self.at = 0;
    }

    /// Goes to the last step, and pauses.
    pub fn jump_to_end(&mut self) {
        self.playing = false;
        self.at = self.frames.len().saturating_sub(1);
    }

    /// Goes to the next step of one of `kinds` (an event's name, such as `place`), and pauses;
    /// stays when there is none. Returns whether it moved.
    pub fn jump_to_next(&mut self, kinds: &[&str]) -> bool {
        self.playing = false;
        match self.frames[self.at.saturating_add(1).min(self.frames.len())..]
            .iter()
            .position(|f| kinds.contains(&f.kind))
        {
            Some(offset) => {
                self.at += 1 + offset;
                true
            }
            None => false,
        }
    }

    /// Plays or pauses; playing from the last step starts again from the first.
    pub fn toggle_play(&mut self) {
        if self.playing {
            self.playing = false;
        } else if !self.frames.is_empty() {
            if self.at + 1 >= self.frames.len() {
                self.at = 0;
            }
            self.playing = self.frames.len() > 1;
        }
    }

    /// Shortens the delay between steps.
    pub fn faster(&mut self) {
        self.speed = (self.speed + 1).min(SPEEDS.len() - 1);
    }

    /// Lengthens the delay between steps.
    pub fn slower(&mut self) {
        self.speed = self.speed.saturating_sub(1);
    }

    /// One tick of the clock: the next step when playing.
    pub fn tick(&mut self) {
        if self.playing {
            self.step_forward();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jumps_go_to_the_next_step_of_a_kind_and_stay_when_there_is_none() {
        let mut all = frames(6);
        for (i, kind) in ["try", "place", "try", "backtrack", "place", "solution"]
            .iter()
            .enumerate()
        {
            all[i].kind = kind;
        }
        let mut p = Playback::new("backtrack", all, false);
        p.toggle_play();
        assert!(p.jump_to_next(&["place"]));
        assert_eq!((p.position(), p.is_playing()), (1, false));
        assert!(p.jump_to_next(&["place"]));
        assert_eq!(p.position(), 4);
        assert!(!p.jump_to_next(&["backtrack"]), "none after step 5");
        assert_eq!(p.position(), 4);
        assert!(p.jump_to_next(&["solution", "nosolution"]));
        assert_eq!(p.position(), 5);
        assert!(!p.jump_to_next(&["place"]));
    }

    fn frames(count: u64) -> Vec<Frame> {
        (1..=count)
            .map(|step| Frame {
                step,
                kind: "try",
                text: format!("step {step}"),
                ..Default::default()
            })
            .collect()
    }

    #[test]
    fn stepping_stays_within_the_recording() {
        let mut p = Playback::new("recursive", frames(3), false);
        assert_eq!(p.frame().unwrap().step, 1);
        p.step_back();
        assert_eq!(p.position(), 0);
        p.step_forward();
        p.step_forward();
        p.step_forward();
        assert_eq!(p.frame().unwrap().step, 3);
        p.step_back();
        assert_eq!(p.frame().unwrap().step, 2);
        p.jump_to_end();
        assert_eq!(p.position(), 2);
        p.rewind();
        assert_eq!(p.position(), 0);
    }

    #[test]
    fn playing_advances_on_ticks_and_stops_at_the_end() {
        let mut p = Playback::new("recursive", frames(3), false);
        p.tick();
        assert_eq!(p.position(), 0, "paused: a tick does nothing");
        p.toggle_play();
        assert!(p.is_playing());
        p.tick();
        p.tick();
        assert_eq!(p.position(), 2);
        assert!(!p.is_playing(), "stops on the last step");
        p.toggle_play();
        assert_eq!(p.position(), 0, "playing again starts over");
        assert!(p.is_playing());
        p.step_back();
        assert!(!p.is_playing(), "stepping back pauses");
    }

    #[test]
    fn speed_moves_between_the_slowest_and_the_fastest() {
        let mut p = Playback::new("wirth", frames(2), false);
        let start = p.delay();
        p.faster();
        assert!(p.delay() < start);
        for _ in 0..20 {
            p.faster();
        }
        assert_eq!(p.delay(), SPEEDS[SPEEDS.len() - 1]);
        for _ in 0..20 {
            p.slower();
        }
        assert_eq!(p.delay(), SPEEDS[0]);
    }

    #[test]
    fn an_empty_recording_never_plays() {
        let mut p = Playback::new("bfs", Vec::new(), false);
        p.toggle_play();
        assert!(!p.is_playing());
        p.step_forward();
        p.tick();
        assert!(p.frame().is_none());
    }
}
