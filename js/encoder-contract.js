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
// The words of the tape a command and an answer cross the encoder module's boundary as.
export const T_NULL = 0;
export const T_FALSE = 1;
export const T_TRUE = 2;
export const T_INT = 3;
export const T_F64 = 4;
export const T_NUMBER_TEXT = 5;
export const T_STR = 6;
export const T_ARRAY = 7;
export const T_OBJECT = 8;
export const T_NEW_STR = 9;
export const T_KNOWN_STR = 10;
