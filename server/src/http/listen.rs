//! The accept loop: how many connections are served at once, in all and per client address, and
//! how long a client may take to send its request's headers (`axum::serve` has neither: a client
//! that sent half its headers kept its connection open, and enough of them exhaust the server),
//! and who the client is behind a trusted load balancer.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request};
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tower::ServiceExt;

/// How long in-flight requests get to finish once shutdown begins (event streams never do).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(20);

/// Limits on connections (the request-body timeout is a layer of the router, see `http`), and
/// the balancers whose `X-Forwarded-For` names the client.
#[derive(Debug, Clone)]
pub(crate) struct ConnectionLimits {
    pub max_connections: usize,
    /// Connections one client address may hold open at once (a trusted balancer: any number).
    pub per_address: usize,
    /// Time to send a request's headers; also how long an idle keep-alive connection stays.
    pub header_timeout: Duration,
    pub trusted_proxies: Arc<Vec<IpAddr>>,
}

/// The client of a request that came from `peer`: the peer itself, or, when the peer is a
/// trusted balancer, the last address of the last `X-Forwarded-For` header (the one the balancer
/// added; earlier ones are the client's word and not believed).
fn client_of(peer: SocketAddr, headers: &axum::http::HeaderMap, trusted: &[IpAddr]) -> SocketAddr {
    if !trusted.contains(&peer.ip()) {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|ip| ip.trim().parse::<IpAddr>().ok())
        .map_or(peer, |ip| SocketAddr::new(ip, 0))
}

/// Open connections by client address, so that one address cannot hold every slot (issue 57:
/// 1,030 slow connections from one address filled all 1,024).
#[derive(Default)]
struct OpenByAddress {
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One open connection of an address; counted until dropped.
struct AddressSlot {
    table: Arc<OpenByAddress>,
    address: IpAddr,
}

impl OpenByAddress {
    /// A slot for one more connection from `address`, unless it holds `max` already.
    fn take(self: &Arc<Self>, address: IpAddr, max: usize) -> Option<AddressSlot> {
        let mut open = self.open.lock().ok()?;
        let count = open.entry(address).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            table: Arc::clone(self),
            address,
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.table.open.lock() {
            if let Some(count) = open.get_mut(&self.address) {
                *count -= 1;
                if *count == 0 {
                    open.remove(&self.address);
                }
            }
        }
    }
}

/// What a connection over its address's limit is told before it is closed.
const TOO_MANY_CONNECTIONS: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\n\
content-type: text/plain; charset=utf-8\r\nretry-after: 10\r\nconnection: close\r\n\
content-length: 62\r\n\r\ntoo many open connections from your address; close some first\n";

/// Tells `stream` it is one connection too many, briefly, then closes it.
fn refuse(mut stream: TcpStream) {
    tokio::spawn(async move {
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            let _ = stream.write_all(TOO_MANY_CONNECTIONS).await;
            let _ = stream.shutdown().await;
        })
        .await;
    });
}

/// Serves `app` on `listener` until `shutdown` resolves, then lets in-flight requests finish
/// (up to [`SHUTDOWN_GRACE`]).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let by_address = Arc::new(OpenByAddress::default());
    let graceful = GracefulShutdown::new();
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        // A free slot first: at the limit, new clients wait in the listen backlog.
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait, then accept again.
                    tracing::warn!("accepting a connection failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // A balancer carries many clients: it is held to the total only.
        let address_slot = if limits.trusted_proxies.contains(&remote.ip()) {
            None
        } else {
            match by_address.take(remote.ip(), limits.per_address.max(1)) {
                Some(slot) => Some(slot),
                None => {
                    drop(slot);
                    refuse(stream);
                    continue;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let trusted = Arc::clone(&limits.trusted_proxies);
        let service = app
            .clone()
            .map_request(move |mut request: Request<Incoming>| {
                let client = client_of(remote, request.headers(), &trusted);
                request.extensions_mut().insert(ConnectInfo(client));
                request
            });
        let connection = graceful
            .watch(http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service)));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(%remote, "connection ended: {e}");
            }
            drop(slot);
            drop(address_slot);
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            "connections still open after {} s; closing them",
            SHUTDOWN_GRACE.as_secs()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

    #[test]
    fn an_address_holds_at_most_its_share_of_connections_until_one_closes() {
        let table = Arc::new(OpenByAddress::default());
        let one: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        let held: Vec<_> = (0..3).map(|_| table.take(one, 3).unwrap()).collect();
        assert!(table.take(one, 3).is_none());
        assert!(table.take(other, 3).is_some());
        drop(held);
        assert!(table.take(one, 3).is_some());
        assert!(
            table.open.lock().unwrap().get(&other).is_none(),
            "closed ones are forgotten"
        );
    }

    #[test]
    fn the_refusal_is_a_whole_http_response() {
        let text = std::str::from_utf8(TOO_MANY_CONNECTIONS).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 429"));
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{text}"
        );
    }

    #[test]
    fn the_client_behind_a_trusted_balancer_is_the_address_it_appended() {
        let balancer: SocketAddr = "127.0.0.1:40000".parse().unwrap();
        let stranger: SocketAddr = "203.0.113.9:40000".parse().unwrap();
        let trusted = ["127.0.0.1".parse().unwrap()];
        let mut headers = HeaderMap::new();
        // What a client wrote itself, then what the balancer appended.
        headers.append("x-forwarded-for", "10.9.9.9".parse().unwrap());
        headers.append(
            "x-forwarded-for",
            "198.51.100.7, 192.0.2.44".parse().unwrap(),
        );
        let client = client_of(balancer, &headers, &trusted);
        assert_eq!(client.ip().to_string(), "192.0.2.44");
        // From anyone else the header is not believed; without it the balancer is the client.
        assert_eq!(client_of(stranger, &headers, &trusted), stranger);
        assert_eq!(client_of(balancer, &HeaderMap::new(), &trusted), balancer);
        let mut nonsense = HeaderMap::new();
        nonsense.append("x-forwarded-for", "not an address".parse().unwrap());
        assert_eq!(client_of(balancer, &nonsense, &trusted), balancer);
        assert_eq!(client_of(balancer, &headers, &[]), balancer);
    }
}
