//! The `volley` binary: parse, run, print the error chain once, exit.
//!
//! Exit codes: 0 success (also when stdout is closed early, e.g. `| head`), 1 failure,
//! 2 usage error, 128 + N after signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP).

use std::process::ExitCode;

use volley::cli::signals::Interrupted;

fn main() -> ExitCode {
    let parsed = volley::cli::parse();
    match volley::cli::run(parsed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            if let Some(i) = err.downcast_ref::<Interrupted>() {
                eprintln!("{i}");
                return ExitCode::from(i.0.exit_code());
            }
            // A closed stdout (e.g. `volley ... | head`) is a normal end, not worth a message.
            let broken_pipe = err.chain().any(|c| {
                c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            // Whatever an input said reaches the terminal with control characters escaped.
            let shown = |text: String| volley::catalogue::text::shown(&text).into_owned();
            eprintln!("error: {}", shown(err.to_string()));
            // A wrapper that prints its source's message and also returns it as its source
            // (an I/O error inside a CSV or Parquet error) would say the same thing twice.
            let mut said = err.to_string();
            for cause in err.chain().skip(1) {
                let text = cause.to_string();
                if text != said {
                    eprintln!("  caused by: {}", shown(text.clone()));
                }
                said = text;
            }
            let code = volley::cli::usage::exit_code(&err);
            if code == 2 {
                eprintln!("\nFor more information, try '--help'.");
            }
            ExitCode::from(code)
        }
    }
}
