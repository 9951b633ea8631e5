/// The answers to client requests (`ok`, `stats`, `error`).
extension LineEncoder {
    /// The answer to a request that was applied.
    public static func ok(command: String, format: LineFormat) -> String {
        string { out in
            line("ok", format: format, strings: command.utf8.count, into: &out) { $0.field("command", string: command) }
        }
    }

    /// The answer to `stats`: how many reads the daemon has timed, and the latency from
    /// reading a device to having written the lines to every client, in whole microseconds
    /// (`p50Us`, `p90Us`, `p99Us`, `p999Us`, `maxUs`).
    public static func stats(_ latency: LatencyHistogram, format: LineFormat) -> String {
        string { out in
            line("stats", format: format, strings: 0, into: &out) { line in
                line.field("reads", int: Int64(latency.count))
                line.field("p50Us", int: latency.percentile(0.5).microseconds)
                line.field("p90Us", int: latency.percentile(0.9).microseconds)
                line.field("p99Us", int: latency.percentile(0.99).microseconds)
                line.field("p999Us", int: latency.percentile(0.999).microseconds)
                line.field("maxUs", int: latency.maximum.microseconds)
            }
        }
    }

    /// The answer to a request that was refused; the client's state is unchanged.
    public static func error(command: String, message: String, format: LineFormat) -> String {
        string { out in
            line("error", format: format, strings: command.utf8.count + message.utf8.count, into: &out) { line in
                line.field("command", string: command)
                line.field("message", string: message)
            }
        }
    }
}
