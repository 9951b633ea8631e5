enum DrawCommand {
    static func run(config: String?, layout: String?, background: String?, recording: String?,
                    description: String?, output: String) throws(CommandFailure) {
        throw CommandFailure(ExitStatus.failure, "draw: not yet")
    }
}
