//! `queens serve`: the real binary on a free loopback port, spoken to with plain HTTP/1.0.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use crate::common::{is_solution, queens};

struct Server {
    child: Child,
    address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `queens serve --port 0` and reads the address it prints on standard error.
fn serve() -> Server {
    let program = queens().get_program().to_owned();
    let mut child = Command::new(program)
        .args(["serve", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("queens serve starts");
    let mut line = String::new();
    BufReader::new(child.stderr.take().expect("stderr is piped"))
        .read_line(&mut line)
        .expect("a first line on stderr");
    let address = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no address in '{line}'"))
        .trim_end_matches('/')
        .to_string();
    Server { child, address }
}

/// One GET request; the status line and the body.
fn get(address: &str, path: &str) -> (String, String) {
    let mut stream = TcpStream::connect(address).expect("the server accepts connections");
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {address}\r\n\r\n").expect("a request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("a response");
    let (head, body) = response.split_once("\r\n\r\n").expect("headers and body");
    (
        head.lines().next().unwrap_or("").to_string(),
        body.to_string(),
    )
}

#[test]
fn serve_listens_on_loopback_and_answers_the_api() {
    let server = serve();
    assert!(
        server.address.starts_with("127.0.0.1:"),
        "{}",
        server.address
    );
    let (status, body) = get(&server.address, "/api/solutions?n=8&offset=1");
    assert!(status.contains("200"), "{status}");
    let value: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    let second: Vec<usize> = value["solutions"][0]["queens"]
        .as_array()
        .expect("queens")
        .iter()
        .map(|c| c.as_u64().expect("a column") as usize)
        .collect();
    assert_eq!(second, [0, 5, 7, 2, 6, 3, 1, 4]);
    assert!(is_solution(&second));
    let (status, body) = get(&server.address, "/api/count?n=0");
    assert!(status.contains("400"), "{status}");
    assert!(body.contains("at least 1"), "{body}");
    let (status, page) = get(&server.address, "/");
    assert!(status.contains("200"), "{status}");
    assert!(page.contains("<svg") || page.contains("id=\"board\""));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_server_gracefully_with_status_130() {
    let mut server = serve();
    let (status, _) = get(&server.address, "/api/count?n=6");
    assert!(status.contains("200"), "{status}");
    let killed = Command::new("kill")
        .args(["-INT", &server.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let exit = server.child.wait().expect("the server ends");
    assert_eq!(exit.code(), Some(130));
}

#[test]
fn a_port_in_use_is_a_clear_error() {
    let server = serve();
    let port = server.address.rsplit(':').next().expect("a port");
    queens()
        .args(["serve", "--port", port])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(format!(
            "cannot listen on 127.0.0.1:{port}"
        )));
}

#[test]
fn a_port_out_of_range_is_bad_usage() {
    queens()
        .args(["serve", "--port", "70000"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("70000"));
}
