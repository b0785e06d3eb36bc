//! A private PostgreSQL cluster for when no `DATABASE_URL` is given.
//!
//! The cluster lives in a directory of its own (by default `target/tally-pg` in the checkout):
//! `initdb` once, then `pg_ctl start` on a free loopback port with Unix sockets off, and `pg_ctl
//! stop` when the server exits. The data directory stays, so nothing stored is lost between runs.
//! PostgreSQL refuses to run as root; as root we run its programs as the `postgres` system user
//! that Debian's package creates.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const DATABASE: &str = "tally";
const SUPERUSER: &str = "tally";
const SERVICE_USER: &str = "postgres";

#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error(
        "PostgreSQL's initdb/pg_ctl were not found (run scripts/setup.sh, or set DATABASE_URL)"
    )]
    NotInstalled,
    #[error("running as root, but there is no `{SERVICE_USER}` user to run PostgreSQL as")]
    NoServiceUser,
    #[error("cannot prepare {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("`{command}` failed: {message}")]
    Command { command: String, message: String },
    #[error("cannot create the `{DATABASE}` database: {0}")]
    CreateDatabase(#[from] sqlx::Error),
}

/// A running private cluster. Call [`PrivateCluster::stop`] when done with it.
#[derive(Debug)]
pub struct PrivateCluster {
    data_dir: PathBuf,
    bin_dir: PathBuf,
    port: u16,
    run_as: Option<&'static str>,
    started_here: bool,
}

impl PrivateCluster {
    /// Starts (initialising if needed) the cluster under `base_dir`, or attaches to it when it is
    /// already running, and makes sure the `tally` database exists.
    pub async fn start(base_dir: &Path) -> Result<Self, ClusterError> {
        let bin_dir = find_bin_dir().ok_or(ClusterError::NotInstalled)?;
        let run_as = if is_root() {
            Some(
                user_exists(SERVICE_USER)
                    .then_some(SERVICE_USER)
                    .ok_or(ClusterError::NoServiceUser)?,
            )
        } else {
            None
        };
        let base_dir = absolute(base_dir);
        let data_dir = base_dir.join("data");
        let io_err = |source| ClusterError::Io {
            path: base_dir.clone(),
            source,
        };
        std::fs::create_dir_all(&base_dir).map_err(io_err)?;
        if let Some(user) = run_as {
            chown(&base_dir, user)?;
            if !can_write_as(user, &base_dir) {
                return Err(ClusterError::Command {
                    command: format!("runuser -u {user} -- test -w {}", base_dir.display()),
                    message: format!(
                        "the `{user}` user cannot reach this directory (a parent is not \
                         searchable); choose another with --pg-dir, or set DATABASE_URL"
                    ),
                });
            }
        }

        let mut cluster = Self {
            data_dir,
            bin_dir,
            port: 0,
            run_as,
            started_here: false,
        };
        if !cluster.data_dir.join("PG_VERSION").is_file() {
            cluster.initdb()?;
        }
        match cluster.running_port() {
            Some(port) => cluster.port = port,
            None => cluster.start_server(&base_dir)?,
        }
        cluster.create_database().await?;
        Ok(cluster)
    }

    /// Connection URL of the cluster's `tally` database.
    pub fn url(&self) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{DATABASE}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Whether this process started the server (and so should stop it).
    pub fn started_here(&self) -> bool {
        self.started_here
    }

    /// Stops the server (fast shutdown: open transactions roll back, committed data stays).
    pub fn stop(&self) -> Result<(), ClusterError> {
        let data = self.data_dir.display().to_string();
        self.run("pg_ctl", &["-D", &data, "-m", "fast", "-w", "stop"])
            .map(|_| ())
    }

    fn initdb(&self) -> Result<(), ClusterError> {
        let data = self.data_dir.display().to_string();
        self.run(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
            ],
        )?;
        Ok(())
    }

    /// Starts the postmaster on a loopback port: the one it had last time when that is free (so
    /// that clients holding its URL reconnect), else a free one; retries with another port if
    /// one was taken between choosing and binding it.
    fn start_server(&mut self, base_dir: &Path) -> Result<(), ClusterError> {
        let data = self.data_dir.display().to_string();
        let log = base_dir.join("postgres.log").display().to_string();
        let port_file = base_dir.join("port");
        let previous = std::fs::read_to_string(&port_file)
            .ok()
            .and_then(|p| p.trim().parse::<u16>().ok())
            .filter(|&p| TcpListener::bind(("127.0.0.1", p)).is_ok());
        const ATTEMPTS: usize = 3;
        let mut attempt = 0;
        loop {
            let port = match previous {
                Some(port) if attempt == 0 => port,
                _ => free_port().map_err(|source| ClusterError::Io {
                    path: self.data_dir.clone(),
                    source,
                })?,
            };
            let options =
                format!("-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''");
            match self.run(
                "pg_ctl",
                &[
                    "-D", &data, "-l", &log, "-w", "-t", "60", "-o", &options, "start",
                ],
            ) {
                Ok(_) => {
                    self.port = port;
                    self.started_here = true;
                    // Only a hint for the next start; losing it just means a new port.
                    let _ = std::fs::write(&port_file, port.to_string());
                    return Ok(());
                }
                Err(e) if attempt + 1 == ATTEMPTS => return Err(e),
                Err(_) => attempt += 1,
            }
        }
    }

    /// The port of a postmaster already running on this data directory, if any (line 4 of
    /// `postmaster.pid`).
    fn running_port(&self) -> Option<u16> {
        let data = self.data_dir.display().to_string();
        self.run("pg_ctl", &["-D", &data, "status"]).ok()?;
        let pid_file = std::fs::read_to_string(self.data_dir.join("postmaster.pid")).ok()?;
        pid_file.lines().nth(3)?.trim().parse().ok()
    }

    async fn create_database(&self) -> Result<(), ClusterError> {
        use sqlx::Connection;
        let admin_url = format!("postgres://{SUPERUSER}@127.0.0.1:{}/postgres", self.port);
        let mut conn = sqlx::PgConnection::connect(&admin_url).await?;
        let exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
                .bind(DATABASE)
                .fetch_one(&mut conn)
                .await?;
        if !exists {
            sqlx::query("CREATE DATABASE tally")
                .execute(&mut conn)
                .await?;
        }
        conn.close().await?;
        Ok(())
    }

    fn run(&self, program: &str, args: &[&str]) -> Result<Output, ClusterError> {
        let program_path = self.bin_dir.join(program);
        let mut command = match self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.arg("-u").arg(user).arg("--").arg(&program_path);
                c
            }
            None => Command::new(&program_path),
        };
        command.args(args).current_dir(std::env::temp_dir());
        let describe = || format!("{program} {}", args.join(" "));
        let output = command.output().map_err(|e| ClusterError::Command {
            command: describe(),
            message: e.to_string(),
        })?;
        if output.status.success() {
            Ok(output)
        } else {
            let mut message = String::from_utf8_lossy(&output.stderr).trim().to_string();
            if message.is_empty() {
                message = String::from_utf8_lossy(&output.stdout).trim().to_string();
            }
            Err(ClusterError::Command {
                command: describe(),
                message,
            })
        }
    }
}

/// Where `initdb` and `pg_ctl` live: on PATH, or Debian's versioned directory (newest first).
fn find_bin_dir() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
    });
    // Debian links initdb onto PATH only sometimes; prefer the real directory so `postgres` is found.
    let on_path = on_path.map(|dir| {
        std::fs::canonicalize(dir.join("initdb"))
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or(dir)
    });
    on_path.or_else(|| {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|bin| bin.join("initdb").is_file())
            .collect();
        dirs.sort_by_key(|d| {
            d.parent()
                .and_then(|v| v.file_name())
                .and_then(|v| v.to_str())
                .and_then(|v| v.parse::<u32>().ok())
                .unwrap_or(0)
        });
        dirs.pop()
    })
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn user_exists(user: &str) -> bool {
    Command::new("id")
        .arg("-u")
        .arg(user)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Hands a directory to the service user.
fn chown(dir: &Path, user: &str) -> Result<(), ClusterError> {
    let status = Command::new("chown")
        .arg("-R")
        .arg(format!("{user}:"))
        .arg(dir)
        .status()
        .map_err(|source| ClusterError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    if !status.success() {
        return Err(ClusterError::Command {
            command: format!("chown -R {user}: {}", dir.display()),
            message: format!("exit status {status}"),
        });
    }
    Ok(())
}

fn can_write_as(user: &str, dir: &Path) -> bool {
    Command::new("runuser")
        .args(["-u", user, "--", "test", "-w"])
        .arg(dir)
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|cwd| cwd.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    }
}
