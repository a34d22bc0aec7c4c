//! Many threads sharing rings and transforms whose caches are still empty,
//! so that first uses race: from plain threads that enter a rayon pool and
//! from inside the pool's own parallel loops. The pools have 8 threads
//! whatever the machine (on 2 threads the work rarely steals another
//! caller's job, which hides a lock held across parallel work). A watchdog
//! turns a hang into a failure that names what every thread was doing.

use std::sync::mpsc;
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use gfpf::{Device, Element, Fft, Field, MulAlgorithm, PolyRing, Preset, RingOptions};
use rand::{RngExt, SeedableRng, rngs::StdRng};
use rayon::prelude::*;

/// Threads of each test's own rayon pool.
const POOL_THREADS: usize = 8;

/// How long a scenario may take before it counts as hung: the whole test
/// takes a few seconds on 2 cores.
const WATCHDOG: Duration = Duration::from_secs(120);

/// What each worker is doing now, for the watchdog's report.
#[derive(Clone)]
struct Phases(Arc<Vec<Mutex<String>>>);

impl Phases {
    fn new(workers: usize) -> Self {
        Phases(Arc::new(
            (0..workers).map(|_| Mutex::new("not started".into())).collect(),
        ))
    }

    fn set(&self, worker: usize, phase: impl Into<String>) {
        *self.0[worker].lock().unwrap_or_else(|e| e.into_inner()) = phase.into();
    }

    fn report(&self) -> String {
        self.0
            .iter()
            .enumerate()
            .map(|(i, p)| format!("  worker {i}: {}", p.lock().unwrap_or_else(|e| e.into_inner())))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Runs `scenario` on a thread of its own and fails, naming every worker's
/// phase, if it has not finished within [`WATCHDOG`]. A hung scenario's
/// threads are left behind (the test process ends with the failure).
fn under_watchdog(name: &str, workers: usize, scenario: impl FnOnce(Phases) + Send + 'static) {
    let phases = Phases::new(workers);
    let (done, finished) = mpsc::channel();
    let inner = phases.clone();
    let start = Instant::now();
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| scenario(inner)));
            let _ = done.send(outcome);
        })
        .expect("spawning the scenario thread");
    match finished.recv_timeout(WATCHDOG) {
        Ok(Ok(())) => eprintln!("{name}: {:.1} s", start.elapsed().as_secs_f64()),
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => panic!(
            "{name}: hung (no progress for {} s); last phase of each worker:\n{}",
            WATCHDOG.as_secs(),
            phases.report()
        ),
    }
}

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(POOL_THREADS)
        .build()
        .expect("a pool of 8 threads")
}

fn random_coeffs(field: &Field<8>, len: usize, rng: &mut StdRng) -> Vec<Element<8>> {
    (0..len).map(|_| field.random(rng)).collect()
}

/// One worker's rounds on a shared ring and transform: forward and inverse
/// transforms, products and squares of random lengths (the TFT every third
/// round, first, so that its levels and twist tables are first used
/// concurrently),
/// each checked against the schoolbook product of the same ring.
fn rounds(worker: usize, rounds: usize, ring: &PolyRing<8>, fft: &Fft<8>, phases: &Phases) {
    let field = ring.field().clone();
    let mut rng = StdRng::seed_from_u64(0x5eed + worker as u64);
    for round in 0..rounds {
        phases.set(worker, format!("round {round}: transforms of {}", fft.len()));
        let x = random_coeffs(&field, fft.len(), &mut rng);
        let mut y = x.clone();
        fft.forward(&mut y).expect("forward");
        fft.inverse(&mut y).expect("inverse");
        assert_eq!(y, x, "worker {worker} round {round}: inverse(forward(x)) != x");

        // Round 0 is a TFT product of 2^11 to 2^12 coefficients, whose
        // first use builds the 4096-point twist table in parallel, so that
        // every repetition races on it; later rounds mix every length.
        let lengths = if round == 0 { 1100..3000usize } else { 1..3000 };
        let la = rng.random_range(lengths.clone());
        let lb = rng.random_range(lengths);
        let a = random_coeffs(&field, la, &mut rng);
        let b = random_coeffs(&field, lb, &mut rng);
        let algorithm = if round % 3 == 0 {
            MulAlgorithm::Tft
        } else {
            MulAlgorithm::Auto
        };
        if round % 4 == 2 {
            phases.set(worker, format!("round {round}: {algorithm:?} square of {la}"));
            let square = ring.engine().square(&a, algorithm).expect("square");
            assert_eq!(
                square,
                ring.engine().mul(&a, &a, MulAlgorithm::MultiModular).expect("product")
            );
        } else {
            phases.set(worker, format!("round {round}: {algorithm:?} product {la} x {lb}"));
            let product = ring.engine().mul(&a, &b, algorithm).expect("product");
            let reference = ring
                .engine()
                .mul(&a, &b, MulAlgorithm::MultiModular)
                .expect("reference product");
            assert_eq!(product, reference, "worker {worker} round {round}: {la} x {lb}");
        }
    }
    phases.set(worker, "done");
}

/// Fresh ring and transform, their caches empty.
fn fresh(field: &Field<8>) -> (PolyRing<8>, Fft<8>) {
    let options = RingOptions {
        device: Device::Cpu,
        algorithm: MulAlgorithm::Tft,
        ..RingOptions::default()
    };
    let ring = PolyRing::with_options(field, options).expect("ring");
    let fft = Fft::builder(field, 4096).device(Device::Cpu).build().expect("fft");
    (ring, fft)
}

/// Plain OS threads, each entering the same 8-thread pool with its work,
/// on rings and transforms made fresh for each repetition.
#[test]
fn plain_threads_sharing_fresh_rings_never_hang() {
    const CALLERS: usize = 4;
    under_watchdog("plain threads", CALLERS, |phases| {
        let field = Field::<8>::preset(Preset::T8).expect("t8");
        let pool = Arc::new(pool());
        for repetition in 0..32 {
            let (ring, fft) = fresh(&field);
            let (ring, fft) = (Arc::new(ring), Arc::new(fft));
            let start = Arc::new(Barrier::new(CALLERS));
            let handles: Vec<_> = (0..CALLERS)
                .map(|worker| {
                    let (ring, fft, pool, phases) = (ring.clone(), fft.clone(), pool.clone(), phases.clone());
                    let start = start.clone();
                    std::thread::spawn(move || {
                        phases.set(worker, format!("repetition {repetition}: entering the pool"));
                        start.wait();
                        pool.install(|| rounds(worker, 3, &ring, &fft, &phases));
                    })
                })
                .collect();
            for h in handles {
                h.join().expect("a caller panicked");
            }
        }
    });
}

/// Products of one fresh ring in a parallel loop of the pool itself.
#[test]
fn parallel_loops_sharing_fresh_rings_never_hang() {
    const TASKS: usize = 8;
    under_watchdog("parallel loop", TASKS, |phases| {
        let field = Field::<8>::preset(Preset::T8).expect("t8");
        pool().install(|| {
            for _ in 0..32 {
                let (ring, fft) = fresh(&field);
                (0..TASKS)
                    .into_par_iter()
                    .for_each(|worker| rounds(worker, 1, &ring, &fft, &phases));
            }
        });
    });
}
