import CMosquitto
import Glibc
import GesturedCore
import GesturedMQTT

/// One libmosquitto client driven by the bridge's own poll loop (`mosquitto_socket`,
/// `mosquitto_loop_read/write/misc`: no thread of libmosquitto's). Its callbacks only record
/// what happened in `events`; the loop hands them to `MQTTBridge` after each call.
final class MosquittoSession {
    enum Event {
        case connected
        case refused(String)
        case disconnected(String)
        case message(topic: String, payload: String)
    }

    private let handle: OpaquePointer
    private let host: String
    private let port: Int32
    var events: [Event] = []
    private(set) var isConnected = false
    /// MQTT 5 answers a refused CONNECT with a reason code, 3.1.1 with a CONNACK code.
    private let isV5: Bool

    /// The seconds between keepalive pings: a broker gone silently is noticed within 1.5× this.
    static let keepAlive: Int32 = 30

    struct SetupError: Error { var message: String }

    init(settings: MQTTSettings, clientID: String, will: Publication, password: String?) throws(SetupError) {
        mosquitto_lib_init()
        guard let handle = mosquitto_new(clientID, true, nil) else { throw SetupError(message: "mosquitto_new failed") }
        self.handle = handle
        host = settings.host
        port = Int32(settings.port)
        isV5 = settings.protocolVersion == .v5
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        let version = switch settings.protocolVersion {
        case .v311: MQTT_PROTOCOL_V311
        case .v5: MQTT_PROTOCOL_V5
        }
        try check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, version), "protocol version")
        try check(mosquitto_will_set(handle, will.topic, Int32(will.payload.utf8.count), will.payload, Int32(will.qos), will.retain),
                  "last will")
        if let username = settings.username {
            try check(mosquitto_username_pw_set(handle, username, password), "username")
        }
        if settings.transport == .mqtts {
            if settings.caFile == nil { try check(mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "system CAs") }
            try check(mosquitto_tls_set(handle, settings.caFile ?? nil, settings.caFile == nil ? "/etc/ssl/certs" : nil,
                                        settings.certFile, settings.keyFile, nil), "TLS")
        }
        mosquitto_connect_callback_set(handle) { _, object, rc in
            let session = Unmanaged<MosquittoSession>.fromOpaque(object!).takeUnretainedValue()
            if rc == 0 {
                session.isConnected = true
                session.events.append(.connected)
            } else {
                session.events.append(.refused(String(cString: session.isV5 ? mosquitto_reason_string(rc) : mosquitto_connack_string(rc))))
            }
        }
        mosquitto_disconnect_callback_set(handle) { _, object, rc in
            let session = Unmanaged<MosquittoSession>.fromOpaque(object!).takeUnretainedValue()
            let was = session.isConnected
            session.isConnected = false
            if was { session.events.append(.disconnected(String(cString: mosquitto_strerror(rc)))) }
        }
        mosquitto_message_callback_set(handle) { _, object, message in
            guard let object, let message, let topic = message.pointee.topic else { return }
            let session = Unmanaged<MosquittoSession>.fromOpaque(object).takeUnretainedValue()
            let bytes = message.pointee.payload.map {
                Array(UnsafeRawBufferPointer(start: $0, count: Int(message.pointee.payloadlen)))
            } ?? []
            session.events.append(.message(topic: String(cString: topic), payload: String(decoding: bytes, as: UTF8.self)))
        }
    }

    deinit {
        mosquitto_destroy(handle)
        mosquitto_lib_cleanup()
    }

    private func check(_ rc: Int32, _ what: String) throws(SetupError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw SetupError(message: "\(what): \(String(cString: mosquitto_strerror(rc)))")
        }
    }

    /// Starts connecting (the TCP connect and CONNECT go out without waiting); nil, or why not.
    func connect(first: Bool) -> String? {
        let rc = first ? mosquitto_connect_async(handle, host, port, Self.keepAlive) : mosquitto_reconnect_async(handle)
        return rc == MOSQ_ERR_SUCCESS.rawValue ? nil : describe(rc)
    }

    /// libmosquitto's words for `rc` (for `MOSQ_ERR_ERRNO`, the system's for errno).
    private func describe(_ rc: Int32) -> String { String(cString: mosquitto_strerror(rc)) }

    /// The socket to poll, or -1.
    var socket: Int32 { mosquitto_socket(handle) }
    var wantsWrite: Bool { mosquitto_want_write(handle) }

    /// One round of libmosquitto's work after poll: read if readable, write if writable, and the
    /// keepalive and retries. Nil, or why the connection is lost.
    func service(readable: Bool, writable: Bool) -> String? {
        var rc = MOSQ_ERR_SUCCESS.rawValue
        if readable { rc = mosquitto_loop_read(handle, 16) }
        if rc == MOSQ_ERR_SUCCESS.rawValue, writable || wantsWrite { rc = mosquitto_loop_write(handle, 16) }
        if rc == MOSQ_ERR_SUCCESS.rawValue { rc = mosquitto_loop_misc(handle) }
        guard rc != MOSQ_ERR_SUCCESS.rawValue else { return nil }
        let was = isConnected
        isConnected = false
        if was { events.append(.disconnected(describe(rc))) }
        return describe(rc)
    }

    /// Hands a publication to libmosquitto; it goes out with the next write.
    func publish(_ publication: Publication) {
        let payload = Array(publication.payload.utf8)
        _ = payload.withUnsafeBytes { raw in
            mosquitto_publish(handle, nil, publication.topic, Int32(raw.count), raw.baseAddress,
                              Int32(publication.qos), publication.retain)
        }
    }

    func subscribe(_ filter: String) { _ = mosquitto_subscribe(handle, nil, filter, 1) }

    /// A clean end: what is queued written (a bounded number of tries), then DISCONNECT, which
    /// tells the broker not to send the will.
    func disconnect() {
        var tries = 0
        while wantsWrite, tries < 64, mosquitto_loop_write(handle, 16) == MOSQ_ERR_SUCCESS.rawValue { tries += 1 }
        _ = mosquitto_disconnect(handle)
        _ = mosquitto_loop_write(handle, 1)
    }
}
