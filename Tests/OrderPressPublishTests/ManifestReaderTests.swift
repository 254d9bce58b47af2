import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressOutput
@testable import OrderPressPublish
import OrderPressTestSupport

@Suite struct ManifestReaderTests {
    /// Manifests with paths and keys of every character JSON escapes or not, sizes from unknown (-1)
    /// to large, keys and pieces present or not, lists empty or not.
    static let manifests = Generator<Manifest, Shrink.None<Manifest>> { rng in
        func entries() -> [Manifest.Entry] {
            (0..<Int.random(in: 0...4, using: &rng)).map { index in
                var pieces = FilePieces()
                for _ in 0..<Int.random(in: 0...3, using: &rng) {
                    pieces.append(
                        Bool.random(using: &rng) ? nil : PieceKey((0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }),
                        length: Int.random(in: 0...1_000_000, using: &rng))
                }
                // Text with nothing to escape half the time, as nearly every path and key is (the reader's fast path).
                return Manifest.Entry(
                    path: "\(index)" + EscapedJSONText.text(&rng), size: Int64.random(in: -1...Int64(1) << 40, using: &rng),
                    modified: Int64.random(in: 0...Int64.max, using: &rng),
                    sha256: ContentDigest(of: Data(PrettyJSONText.text(&rng).utf8)),
                    reuseKey: Bool.random(using: &rng) ? EscapedJSONText.text(&rng) : nil, pieces: Bool.random(using: &rng) ? pieces : nil)
            }
        }
        // The fingerprint of the inputs, when the build recorded one (issue 22, item 15).
        let inputs = Bool.random(using: &rng) ? PrettyJSONText.text(&rng) : nil
        return Manifest(markdown: entries(), site: entries(), inputs: inputs)
    }

    static func sorted(_ manifest: Manifest) -> Manifest {
        Manifest(
            markdown: manifest.markdown.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) },
            site: manifest.site.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }, inputs: manifest.inputs)
    }

    @Test func readsWhatTheManifestWritesAsJSONDecoderDoes() async {
        await propertyCheck(count: 300, input: Self.manifests) { manifest in
            let encoded = manifest.encoded()
            let read = ManifestReader.read(encoded)
            #expect(read == Self.sorted(manifest), "\(String(decoding: encoded, as: UTF8.self))")
            #expect(read == Manifest.decodedByFoundation(encoded))
        }
    }

    /// Anything out of the written shape is left to JSONDecoder, which reads what is valid JSON.
    @Test(arguments: [
        #"{"version": 2, "markdown": [], "site": []}"#,
        "{\"version\": 2,\n\"markdown\": [\n{\"path\": \"a\\u00e9\", \"size\": 1, \"modified\": 2, \"sha256\": \"\(String(repeating: "0", count: 64))\"}\n],\n\"site\": [\n]\n}\n",
        "{\"version\": 2,\n\"markdown\": [\n{\"path\": \"a\", \"size\": 1, \"modified\": 2, \"sha256\": \"\(String(repeating: "0", count: 64))\"}\n],\n\"site\": [\n]\n}\n ",
        "{\"version\": 1,\n\"markdown\": [\n],\n\"site\": [\n]\n}\n",
    ])
    func leavesOtherShapesToJSONDecoder(text: String) {
        #expect(ManifestReader.read(Data(text.utf8)) == nil)
    }

    @Test func readsAnEmptyManifest() {
        let empty = Manifest(markdown: [], site: [])
        #expect(ManifestReader.read(empty.encoded()) == empty)
    }
}
