// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.
export const FAMILIES = {
  "session-inbox": {
    "binary": {
      "deliver": [
        "/payloads/*/message/*/data",
        "/payloads/*/message/*/image"
      ]
    },
    "commands": {
      "send": {
        "becomes": "deliver",
        "places": [
          [
            "/payload",
            "/payloads/0"
          ],
          [
            "/delivery",
            "/deliveryMetadata/0"
          ]
        ]
      }
    },
    "current": 6,
    "family": "session-inbox",
    "stableInboxToken": "eve:session:{runId}:inbox",
    "targets": [
      {
        "variant": "deliver",
        "version": 0
      },
      {
        "variant": "send",
        "version": 0
      },
      {
        "version": 1
      },
      {
        "version": 2
      },
      {
        "version": 3
      },
      {
        "version": 4
      },
      {
        "version": 5
      },
      {
        "version": 6
      }
    ]
  },
  "turn-control": {
    "binary": {},
    "current": 1,
    "family": "turn-control",
    "targets": [
      {
        "version": 0
      },
      {
        "version": 1
      }
    ]
  }
};
