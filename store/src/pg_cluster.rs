//! A private PostgreSQL cluster for when no `DATABASE_URL` is given.
//!
//! The cluster lives in a directory of its own (by default `target/tally-pg` in the checkout):
//! `initdb` once, then `pg_ctl start` on a free loopback port with Unix sockets off, and `pg_ctl
//! stop` when the server exits. The data directory stays, so nothing stored is lost between runs.
//! PostgreSQL refuses to run as root; as root we run its programs as the `postgres` system user
//! that Debian's package creates.
//!
//! Nobody connects without a password: the superuser's and the app role's passwords are made at
//! random when first needed and kept in the cluster directory (mode 0600), `pg_hba.conf` asks for
//! `scram-sha-256` on every line, and the server connects as `tally_app`, which owns the `tally`
//! database and is not a superuser. A cluster made by an earlier Tally with `trust` is secured
//! the same way when it is next started.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::cluster_error::{ClusterError, DATABASE, SERVICE_USER};
use crate::db::{Database, DbError};

const SUPERUSER: &str = "tally";
/// The role the server connects as: owner of the `tally` database, not a superuser.
const APP_ROLE: &str = "tally_app";
/// File in the cluster directory holding the superuser's password.
pub const SUPERUSER_PASSWORD_FILE: &str = "superuser.password";
/// File in the cluster directory holding the app role's password.
pub const APP_PASSWORD_FILE: &str = "app.password";
/// File in the cluster directory naming the process that owns the running cluster (its pid): the
/// one that stops it on exit.
pub const OWNER_FILE: &str = "owner.pid";
/// File in the cluster directory that servers lock while they set up, start or restart the
/// cluster: two servers started at once used to run initdb or pg_ctl over each other (issue 57),
/// now the second waits and joins the cluster the first started.
pub const START_LOCK_FILE: &str = "start.lock";
/// What `pg_hba.conf` says once secured: passwords on loopback, nothing else.
const HBA: &str = "# Written by Tally: every connection needs its role's password.
local all all scram-sha-256
host all all 127.0.0.1/32 scram-sha-256
host all all ::1/128 scram-sha-256
";

/// A running private cluster. Call [`PrivateCluster::stop`] when done with it; a cluster this
/// process owns is stopped when its handle is dropped anyway, however its holder ends.
#[derive(Debug)]
pub struct PrivateCluster {
    base_dir: PathBuf,
    data_dir: PathBuf,
    bin_dir: PathBuf,
    port: u16,
    run_as: Option<&'static str>,
    owner_file: PathBuf,
    owned: std::sync::atomic::AtomicBool,
    superuser_password: String,
    app_password: String,
}

impl PrivateCluster {
    /// Starts (initialising if needed) the cluster under `base_dir`, or attaches to it when it is
    /// already running, and makes sure the `tally` database exists.
    pub async fn start(base_dir: &Path) -> Result<Self, DbError> {
        Ok(Self::start_cluster(base_dir).await?)
    }

    /// [`Self::start`], its failure the cluster's own (the cause a store that could not be set
    /// up gives on every use).
    pub(crate) async fn start_cluster(base_dir: &Path) -> Result<Self, ClusterError> {
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
        // Held until this server has the cluster running, or has joined it.
        let _lock = {
            let base_dir = base_dir.clone();
            tokio::task::spawn_blocking(move || start_lock(&base_dir))
                .await
                .map_err(ClusterError::LockTask)??
        };
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

        let superuser_file = base_dir.join(SUPERUSER_PASSWORD_FILE);
        let superuser_password = secret(&superuser_file, run_as)?;
        let app_password = secret(&base_dir.join(APP_PASSWORD_FILE), None)?;
        let mut cluster = Self {
            base_dir: base_dir.clone(),
            data_dir,
            bin_dir,
            port: 0,
            run_as,
            owner_file: base_dir.join(OWNER_FILE),
            owned: false.into(),
            superuser_password,
            app_password,
        };
        if !cluster.data_dir.join("PG_VERSION").is_file() {
            cluster.initdb(&superuser_file)?;
        }
        match cluster.running_port() {
            Some(port) => {
                cluster.port = port;
                // Left running by a server that is gone (killed): this one owns it now, so it is
                // stopped when this one exits.
                if !owner_alive(&cluster.owner_file) {
                    cluster.take_ownership();
                }
            }
            None => {
                cluster.start_server(&base_dir)?;
                cluster.take_ownership();
            }
        }
        cluster.require_passwords().await?;
        cluster.create_database().await?;
        Ok(cluster)
    }

    /// Connection URL of the cluster's `tally` database, as the app role (it holds the role's
    /// password: never log it).
    pub fn url(&self) -> String {
        format!(
            "postgres://{APP_ROLE}:{}@127.0.0.1:{}/{DATABASE}",
            self.app_password, self.port
        )
    }

    /// The loopback port the cluster listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The cluster's data directory.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Whether this process owns the running cluster (and so should stop it): it started it, or
    /// found it left running by an owner that is gone, and no other server restarted it since.
    pub fn owned(&self) -> bool {
        use std::sync::atomic::Ordering;
        let recorded = std::fs::read_to_string(&self.owner_file)
            .ok()
            .and_then(|text| text.trim().parse::<u32>().ok());
        self.owned.load(Ordering::Acquire) && recorded.is_none_or(|pid| pid == std::process::id())
    }

    /// Starts the cluster again when it is not running (stopped by hand, or crashed), on its
    /// port, so that the pool's URL holds; this server then owns it. Blocking. Whether it was
    /// started.
    pub fn restart_if_stopped(&self) -> Result<bool, DbError> {
        let _lock = start_lock(&self.base_dir)?;
        if self.running_port().is_some() {
            return Ok(false);
        }
        self.pg_ctl_start(self.port)?;
        self.take_ownership();
        Ok(true)
    }

    /// Records this process as the cluster's owner. Without the record the cluster is still
    /// used; only a later restart would not know whose it is.
    fn take_ownership(&self) {
        self.owned.store(true, std::sync::atomic::Ordering::Release);
        if let Err(e) = std::fs::write(&self.owner_file, std::process::id().to_string()) {
            tracing::warn!(
                "cannot record the cluster's owner in {}: {e}",
                self.owner_file.display()
            );
        }
    }

    /// Stops the server (fast shutdown: open transactions roll back, committed data stays).
    pub fn stop(&self) -> Result<(), DbError> {
        // Not while a server (re)starts it.
        let _lock = start_lock(&self.base_dir)?;
        let data = self.data_dir.display().to_string();
        self.run("pg_ctl", &["-D", &data, "-m", "fast", "-w", "stop"])?;
        let _ = std::fs::remove_file(&self.owner_file);
        Ok(())
    }

    fn initdb(&self, password_file: &Path) -> Result<(), ClusterError> {
        let data = self.data_dir.display().to_string();
        let password_file = format!("--pwfile={}", password_file.display());
        self.run(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                SUPERUSER,
                "--auth=scram-sha-256",
                &password_file,
                "--encoding=UTF8",
                "--no-locale",
            ],
        )?;
        Ok(())
    }

    /// Secures a cluster that still trusts connections (made by an earlier Tally): gives the
    /// superuser its password, then makes `pg_hba.conf` ask for passwords and reloads it.
    async fn require_passwords(&self) -> Result<(), ClusterError> {
        use sqlx::Connection;
        let hba = self.data_dir.join("pg_hba.conf");
        let io_err = |source| ClusterError::Io {
            path: hba.clone(),
            source,
        };
        let current = std::fs::read_to_string(&hba).map_err(io_err)?;
        let trusts = current
            .lines()
            .map(str::trim)
            .any(|l| !l.starts_with('#') && l.split_whitespace().any(|w| w == "trust"));
        if !trusts {
            return Ok(());
        }
        let options = self.options("postgres", SUPERUSER, None);
        let mut conn = sqlx::PgConnection::connect_with(&options).await?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "ALTER ROLE {SUPERUSER} PASSWORD '{}'",
            self.superuser_password
        )))
        .execute(&mut conn)
        .await?;
        conn.close().await?;
        // Written in place, so the file keeps its owner (the `postgres` user when run as root).
        std::fs::write(&hba, HBA).map_err(io_err)?;
        let data = self.data_dir.display().to_string();
        self.run("pg_ctl", &["-D", &data, "reload"])?;
        tracing::info!("the private PostgreSQL cluster trusted loopback connections; it now asks for passwords");
        Ok(())
    }

    fn options(
        &self,
        database: &str,
        role: &str,
        password: Option<&str>,
    ) -> sqlx::postgres::PgConnectOptions {
        let options = sqlx::postgres::PgConnectOptions::new()
            .host("127.0.0.1")
            .port(self.port)
            .username(role)
            .database(database);
        match password {
            Some(password) => options.password(password),
            None => options,
        }
    }

    /// Starts the postmaster on a loopback port: the one it had last time when that is free (so
    /// that clients holding its URL reconnect), else a free one; retries with another port if
    /// one was taken between choosing and binding it.
    fn start_server(&mut self, base_dir: &Path) -> Result<(), ClusterError> {
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
            match self.pg_ctl_start(port) {
                Ok(_) => {
                    self.port = port;
                    // Only a hint for the next start; losing it just means a new port.
                    let _ = std::fs::write(&port_file, port.to_string());
                    return Ok(());
                }
                Err(e) if attempt + 1 == ATTEMPTS => return Err(e),
                Err(_) => attempt += 1,
            }
        }
    }

    /// Starts the postmaster on loopback `port`, without Unix sockets, logging to
    /// `postgres.log` in the cluster directory; waits until it accepts connections.
    fn pg_ctl_start(&self, port: u16) -> Result<Output, ClusterError> {
        let data = self.data_dir.display().to_string();
        let log = self.base_dir.join("postgres.log").display().to_string();
        let options =
            format!("-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''");
        self.run(
            "pg_ctl",
            &[
                "-D", &data, "-l", &log, "-w", "-t", "60", "-o", &options, "start",
            ],
        )
    }

    /// The port of a postmaster already running on this data directory, if any (line 4 of
    /// `postmaster.pid`).
    fn running_port(&self) -> Option<u16> {
        let data = self.data_dir.display().to_string();
        self.run("pg_ctl", &["-D", &data, "status"]).ok()?;
        let pid_file = std::fs::read_to_string(self.data_dir.join("postmaster.pid")).ok()?;
        pid_file.lines().nth(3)?.trim().parse().ok()
    }

    /// Makes sure the `tally` database and the app role exist, the role has its password and
    /// is no superuser, and it owns the database, its schema and every table in it (tables made
    /// by an earlier Tally belong to the superuser).
    async fn create_database(&self) -> Result<(), ClusterError> {
        use sqlx::Connection;
        let superuser = Some(self.superuser_password.as_str());
        let mut conn =
            sqlx::PgConnection::connect_with(&self.options("postgres", SUPERUSER, superuser))
                .await?;
        let role_exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)")
                .bind(APP_ROLE)
                .fetch_one(&mut conn)
                .await?;
        if !role_exists {
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE ROLE {APP_ROLE} LOGIN")))
                .execute(&mut conn)
                .await?;
        }
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "ALTER ROLE {APP_ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '{}'",
            self.app_password
        )))
        .execute(&mut conn)
        .await?;
        let exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
                .bind(DATABASE)
                .fetch_one(&mut conn)
                .await?;
        if !exists {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "CREATE DATABASE {DATABASE} OWNER {APP_ROLE}"
            )))
            .execute(&mut conn)
            .await?;
        }
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "ALTER DATABASE {DATABASE} OWNER TO {APP_ROLE}"
        )))
        .execute(&mut conn)
        .await?;
        conn.close().await?;

        let mut conn =
            sqlx::PgConnection::connect_with(&self.options(DATABASE, SUPERUSER, superuser)).await?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "ALTER SCHEMA public OWNER TO {APP_ROLE}"
        )))
        .execute(&mut conn)
        .await?;
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tableowner <> $1",
        )
        .bind(APP_ROLE)
        .fetch_all(&mut conn)
        .await?;
        for table in tables {
            // The table's sequences and indexes follow it.
            let quoted = table.replace('"', "\"\"");
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "ALTER TABLE public.\"{quoted}\" OWNER TO {APP_ROLE}"
            )))
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
        let output = command.output().map_err(|source| ClusterError::Run {
            command: describe(),
            source,
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

/// The password kept in `path`: read, or made at random and written with mode 0600 (given to
/// `owner` when set, so that `initdb`, run as that user, can read it).
fn secret(path: &Path, owner: Option<&str>) -> Result<String, ClusterError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let io_err = |source| ClusterError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Ok(existing) = std::fs::read_to_string(path) {
        let existing = existing.trim().to_string();
        if !existing.is_empty() {
            return Ok(existing);
        }
    }
    // Two random (v4) UUIDs in hex, 244 random bits: safe inside a SQL literal and a URL.
    let password = format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    );
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .map_err(io_err)?;
    file.write_all(password.as_bytes()).map_err(io_err)?;
    if let Some(user) = owner {
        chown(path, user)?;
    }
    Ok(password)
}

/// Stops a cluster this process owns and left running (issue 70: a test that returned early or
/// panicked left its PostgreSQL running, one more each CI run). A cluster another process owns
/// is left to it.
impl Drop for PrivateCluster {
    fn drop(&mut self) {
        if self.owned() && self.running_port().is_some() {
            if let Err(e) = self.stop() {
                tracing::warn!(
                    "could not stop the private PostgreSQL cluster: {}",
                    tally_types::error::Causes(&e)
                );
            }
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

/// Whether the process named in `owner_file` still runs (a missing or unreadable file names none).
/// Waits for, then holds, the cluster directory's start lock (released when the file is
/// dropped, or when the process ends).
fn start_lock(base_dir: &Path) -> Result<std::fs::File, ClusterError> {
    let path = base_dir.join(START_LOCK_FILE);
    let io_err = |source| ClusterError::Io {
        path: path.clone(),
        source,
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io_err)?;
    file.lock().map_err(io_err)?;
    Ok(file)
}

fn owner_alive(owner_file: &Path) -> bool {
    let Some(pid) = std::fs::read_to_string(owner_file)
        .ok()
        .and_then(|text| text.trim().parse::<libc::pid_t>().ok())
        .filter(|&pid| pid > 0)
    else {
        return false;
    };
    if pid as u32 == std::process::id() {
        return true;
    }
    // SAFETY: signal 0 only asks whether the process exists; nothing is sent.
    let exists = unsafe { libc::kill(pid, 0) } == 0;
    // EPERM: it exists but belongs to another user.
    exists || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
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

impl Database {
    /// The store on a private cluster under `base_dir`, started or joined, with the cluster; a
    /// store that says why it cannot be used when none could be set up. Never fails: without a
    /// database the app runs and says that feedback cannot be saved.
    pub async fn on_private_cluster(base_dir: &Path) -> (Database, Option<PrivateCluster>) {
        match PrivateCluster::start_cluster(base_dir).await {
            Ok(cluster) => {
                tracing::info!(
                    "private PostgreSQL cluster on port {} (data in {})",
                    cluster.port(),
                    cluster.data_dir().display()
                );
                (Database::new(&cluster.url()), Some(cluster))
            }
            Err(e) => {
                tracing::warn!(
                    "no DATABASE_URL and no private cluster: {}",
                    tally_types::error::Causes(&e)
                );
                (Database::unavailable(e), None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Connection;

    async fn connects(options: &sqlx::postgres::PgConnectOptions) -> Result<(), sqlx::Error> {
        sqlx::PgConnection::connect_with(options)
            .await?
            .close()
            .await
    }

    /// A new cluster asks every role for its password, and the app connects as a role that is
    /// not a superuser; a cluster left trusting (as an earlier Tally made them) is secured when
    /// it is next started, with its data kept.
    #[tokio::test]
    async fn connections_need_passwords_and_the_app_is_no_superuser() {
        if find_bin_dir().is_none() {
            panic!("PostgreSQL is not installed (scripts/setup.sh installs it)");
        }
        let dir = std::env::temp_dir().join(format!("tally-pg-secured-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cluster = PrivateCluster::start(&dir).await.unwrap();
        let without_password = |role: &str| cluster.options(DATABASE, role, None);
        for role in [SUPERUSER, APP_ROLE] {
            let refused = connects(&without_password(role)).await;
            assert!(refused.is_err(), "{role} connected without a password");
        }
        for file in [SUPERUSER_PASSWORD_FILE, APP_PASSWORD_FILE] {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(file))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{file}");
        }
        let mut app = sqlx::PgConnection::connect(&cluster.url()).await.unwrap();
        let superuser: bool =
            sqlx::query_scalar("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                .fetch_one(&mut app)
                .await
                .unwrap();
        assert!(!superuser);
        sqlx::query("CREATE TABLE kept (n int)")
            .execute(&mut app)
            .await
            .unwrap();
        app.close().await.unwrap();

        // Made trusting again, as clusters of earlier versions were, with a table the
        // superuser owns.
        let superuser = Some(cluster.superuser_password.as_str());
        let mut admin =
            sqlx::PgConnection::connect_with(&cluster.options(DATABASE, SUPERUSER, superuser))
                .await
                .unwrap();
        sqlx::query("CREATE TABLE old_rows (n int)")
            .execute(&mut admin)
            .await
            .unwrap();
        admin.close().await.unwrap();
        let hba = cluster.data_dir.join("pg_hba.conf");
        std::fs::write(&hba, "host all all 127.0.0.1/32 trust\n").unwrap();
        cluster.stop().unwrap();
        assert!(std::fs::read_to_string(&hba).unwrap().contains("trust"));

        let cluster = PrivateCluster::start(&dir).await.unwrap();
        assert!(!std::fs::read_to_string(&hba).unwrap().contains(" trust"));
        let refused = connects(&cluster.options(DATABASE, SUPERUSER, None)).await;
        assert!(
            refused.is_err(),
            "the superuser connected without a password"
        );
        let mut app = sqlx::PgConnection::connect(&cluster.url()).await.unwrap();
        // The app role now owns the superuser's old table too, and the data stayed.
        sqlx::query("INSERT INTO old_rows VALUES (1)")
            .execute(&mut app)
            .await
            .unwrap();
        sqlx::query("DROP TABLE kept")
            .execute(&mut app)
            .await
            .unwrap();
        app.close().await.unwrap();
        cluster.stop().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
