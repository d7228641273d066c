import AlmanacCore
import Foundation

/// Writes by untrusted callers (`tools serve`, `tools mcp`, a model in `tools ask`): only on a
/// front where the operator allowed them, and each one confirmed (docs/security.md).
extension CalendarWriteRun {
    /// The caller's grant: nil on the command line; for an untrusted caller the operator's
    /// `[serve] allow_writes` grant, else the one-line refusal.
    func callerGrant() throws -> CallerWrites? {
        guard context.trust == .untrusted else { return nil }
        guard let grant = context.environment.egress.writes else {
            throw CallerWrites.refusal(tool: "calendar", what: "'\(command.rawValue)'")
        }
        return grant
    }

    /// Returns when `plan` may be written for the caller: its token redeemed, or the person behind
    /// it said yes when asked. Otherwise throws, having changed nothing: a preview with a new
    /// single-use token (``ConfirmationRequired``), or a one-line refusal.
    func confirm(_ plan: WritePlan, in source: CalendarSource, grant: CallerWrites) async throws {
        var preview = plan.preview(source.name, zone: zone)
        // A new item's UID too: the confirming call writes that UID (it comes from the token).
        if case .add(let item) = plan { preview += " (uid \(item.uid))" }
        let fingerprint = Self.fingerprint(arguments, preview: preview)
        if let token = arguments.string(CalendarParameter.confirm) {
            switch await grant.tokens.redeem(token, fingerprint: fingerprint, caller: grant.caller) {
            case .confirmed: return
            case .expired:
                throw AlmanacError.usage(
                    "calendar: not written: the confirmation token expired",
                    suggestion: "call again without confirm for a new preview and token")
            case .unknown:
                throw AlmanacError.usage(
                    "calendar: not written: the confirmation token is unknown or was used already",
                    suggestion: "call again without confirm for a new preview and token")
            case .otherWrite:
                throw AlmanacError.usage(
                    "calendar: not written: the confirmation token was issued for a different write "
                        + "(this one would \(preview))",
                    suggestion: "send the same arguments as the preview, or call again without confirm")
            }
        }
        if let ask = grant.ask, let answer = await ask("Almanac would \(preview). Write it?") {
            guard answer else {
                throw AlmanacError.usage("calendar: not written (not confirmed): \(preview)", suggestion: nil)
            }
            return
        }
        let token = ticket ?? WriteTokens.newToken()
        await grant.tokens.register(token, fingerprint: fingerprint, caller: grant.caller)
        throw ConfirmationRequired(
            tool: "calendar", preview: preview, confirmWord: CalendarParameter.confirm.rawValue, token: token,
            validSeconds: Int(grant.tokens.lifetime))
    }

    /// The write a token is bound to: every argument but the token itself, and the exact preview
    /// (the item, its calendar, local times and zone, UID), so "tomorrow" read after midnight, or
    /// an item that changed in between, is a different write. Kept whole, not hashed: a short hash
    /// could be matched by a crafted other write.
    static func fingerprint(_ arguments: ToolArguments, preview: String) -> String {
        let pairs = arguments.values.filter { $0.key != CalendarParameter.confirm.rawValue }.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
        return (pairs + [preview]).joined(separator: "\u{1F}")
    }
}
