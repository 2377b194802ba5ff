//! The `volley` binary: parse, run, print the error chain once, exit.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = volley::cli::Cli::parse();
    match volley::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // A closed stdout (e.g. `volley ... | head`) is not an error worth a message.
            if let Some(io) = err.downcast_ref::<std::io::Error>()
                && io.kind() == std::io::ErrorKind::BrokenPipe
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {err}");
            for cause in err.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            ExitCode::FAILURE
        }
    }
}
