import EasyBake

/// A source whose bytes a `JSONScanner` reads: JSON and JSON Lines. What
/// they share of finding the keys a path wants is written once, here
/// (``nextWantedKeyScanning(_:)``); each keeps its own skipping (JSON gives
/// back read pages, JSON Lines finishes a line) behind the requirements.
protocol JSONScannedSource: IngredientSource {
    /// Reads the next key of the open object if it is plain ASCII, and
    /// tells whether it is wanted (`JSONScanner.nextKeyQuickly(_:)` on the
    /// source's scanner).
    mutating func nextKeyQuickly(_ wanted: WantedKeys) throws(EasyBakeError) -> JSONScanner.QuickKey

    /// Called when ``nextWantedKeyScanning(_:)`` has read the end of the
    /// object it searched (JSON Lines finishes the line of a record that
    /// ended there).
    mutating func finishedObject() throws(EasyBakeError)
}

extension JSONScannedSource {
    /// ``IngredientSource/nextWantedKey(_:)`` by comparing raw key bytes
    /// with the wanted keys, so that an unwanted key costs a scan and no
    /// `String`; escaped or non-ASCII keys (and wanted keys that are not
    /// ASCII) take the event path and `String` equality.
    @inline(__always)
    mutating func nextWantedKeyScanning(_ wanted: WantedKeys) throws(EasyBakeError) -> Int? {
        while true {
            switch try nextKeyQuickly(wanted) {
            case .wanted(let index):
                return index
            case .unwanted:
                try skipValue()
            case .end:
                try finishedObject()
                return nil
            case .slow:
                // An escaped or non-ASCII key (or wanted keys that are not
                // ASCII): the rest of this object goes by events.
                return try nextWantedKeyReadingEvents(wanted)
            }
        }
    }
}
