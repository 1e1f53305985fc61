import Foundation

/// What a child process reports about the one contender it ran.
struct Measurement: Codable, Sendable {
    var id: String
    var count: Int
    var checksum: UInt64?
    /// Wall-clock seconds of each timed run.
    var seconds: [Double]
    /// The process's peak resident set (VmHWM) during the first timed run,
    /// in bytes (see `measure`).
    var peakRSS: Int
    /// The resident set before the contender started, in bytes.
    var baselineRSS: Int
    /// The fingerprint of one check value per record, where the contender gives one.
    var checkValues: UInt64?

    var best: Double { seconds.min() ?? .nan }
}

/// Runs one contender in the current process: the child side of
/// `--child`. Prepares outside the clock, then times up to `iterations`
/// runs, stopping early once `budget` seconds are spent; every run must give
/// the same count and checksum.
///
/// A timed run covers what a program pays to use the records: the
/// contender's work, the fold of its values into the check (a consumer's
/// pass over them) and the release of everything it built. A streaming
/// contender folds and frees each record as it goes; timing only the first
/// step of a whole-document contender would leave out the fold and the
/// release that the streaming rows cannot leave out.
func measure(
    _ contender: Contender, workload: Workload, iterations: Int, budget: Double,
    dump: String? = nil
) throws -> Measurement {
    let baseline = residentMemory().current
    let run = try contender.prepare(workload)
    var seconds: [Double] = []
    var first: (count: Int, checksum: UInt64?, checkValues: UInt64?)?
    // A check made with the clock stopped is the benchmark's, not a
    // consumer's: its memory is not the contender's either. The peak is
    // then the one when the first run's clock stops (the bake and the
    // model it holds), before any check has run.
    var peakAtClockStop: Int?
    // Otherwise the peak is the first run's, its fold and release included:
    // a later run's adds what the allocator kept of the runs before it
    // (glibc keeps freed heap pages resident), which is not what one use
    // of the contender takes (15 MB more per run for the index of a 50 MB
    // API response).
    var peakAfterFirstRun: Int?
    for _ in 0..<max(iterations, 1) {
        let start = DispatchTime.now().uptimeNanoseconds
        var outcome: Outcome? = try run()
        let checking = DispatchTime.now().uptimeNanoseconds
        if outcome!.checkedAfterClock, peakAtClockStop == nil { peakAtClockStop = residentMemory().peak }
        let result = (outcome!.count, outcome!.checksum(), outcome!.checkValues?())
        let paused = outcome!.checkedAfterClock ? DispatchTime.now().uptimeNanoseconds - checking : 0
        // Only a `--dump` run keeps the values past the clock, to write them.
        let kept = dump != nil && first == nil ? outcome : nil
        outcome = nil
        seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start - paused) / 1e9)
        if let dump, let kept { try kept.dump()?.write(to: URL(fileURLWithPath: dump)) }
        if let first, first.count != result.0 || first.checksum != result.1 || first.checkValues != result.2 {
            throw BenchError("\(contender.id) gave different results on repeated runs")
        }
        first = result
        if peakAfterFirstRun == nil { peakAfterFirstRun = residentMemory().peak }
        if seconds.reduce(0, +) >= budget { break }
    }
    return Measurement(
        id: contender.id, count: first?.count ?? 0, checksum: first?.checksum ?? nil,
        seconds: seconds, peakRSS: peakAtClockStop ?? peakAfterFirstRun ?? residentMemory().peak,
        baselineRSS: baseline,
        checkValues: first?.checkValues ?? nil)
}

/// The current and peak resident set of this process, in bytes: VmRSS and
/// VmHWM from /proc/self/status, or `ru_maxrss` where there is no /proc.
func residentMemory() -> (current: Int, peak: Int) {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
        var current = 0, peak = 0
        for line in status.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let kilobytes = Int(parts[1]) else { continue }
            if parts[0] == "VmRSS:" { current = kilobytes * 1024 }
            if parts[0] == "VmHWM:" { peak = kilobytes * 1024 }
        }
        if peak > 0 { return (current, peak) }
    }
    var usage = rusage()
    #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    #if os(Linux)
        let peak = Int(usage.ru_maxrss) * 1024
    #else
        let peak = Int(usage.ru_maxrss)
    #endif
    return (peak, peak)
}

/// Runs one contender in a child process (this executable re-run with the
/// hidden `--child` option), so that its peak memory is its own.
func runInChild(_ contender: Contender, workload: Workload, iterations: Int, budget: Double, timeout: Double)
    -> Result<Measurement, BenchError>
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executablePath())
    process.arguments = [
        "--child", contender.id, "--child-input", workload.path, "--child-input-bytes", String(workload.bytes),
        "--operations", String(workload.operations), "--iterations", String(iterations),
        "--budget", String(budget),
    ]
    let output = Pipe()
    let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent(
        "easybake-bench-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorLog) }
    process.standardOutput = output
    let started = Date()
    do {
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
    } catch {
        return .failure(BenchError("cannot start a child process: \(error)"))
    }
    // A contender that does not finish in time is stopped; its cell says so.
    let deadline = DispatchWorkItem { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    deadline.cancel()
    if process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL,
        Date().timeIntervalSince(started) >= timeout
    {
        return .failure(BenchError(String(format: "did not finish within %.0f s", timeout)))
    }
    let errors = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
    guard process.terminationStatus == 0, process.terminationReason == .exit else {
        let reason =
            process.terminationReason == .uncaughtSignal
            ? "killed by signal \(process.terminationStatus)" : "exit \(process.terminationStatus)"
        let lastLine = errors.split(separator: "\n").last.map(String.init) ?? ""
        return .failure(BenchError("\(reason)\(lastLine.isEmpty ? "" : ": \(lastLine)")"))
    }
    do {
        return .success(try JSONDecoder().decode(Measurement.self, from: data))
    } catch {
        return .failure(BenchError("unreadable child output: \(String(decoding: data, as: UTF8.self).prefix(200))"))
    }
}

func executablePath() -> String {
    #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
    #endif
    return Bundle.main.executablePath ?? CommandLine.arguments[0]
}
