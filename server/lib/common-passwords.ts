// Common passwords that still satisfy the portal's composition rule (8+ chars, lower, upper, digit), lower-cased.
// Drawn from public breach top lists; refused when a user chooses a new password.
export const commonPasswords = new Set(
  [
    "password1", "password12", "password123", "password1234", "passw0rd", "passw0rd1", "p@ssw0rd", "p@ssw0rd1", "p4ssw0rd",
    "qwerty123", "qwerty1234", "qwertyuiop1", "abc12345", "abcd1234", "abcdef12", "abc123456", "a1b2c3d4", "aa123456",
    "asdfgh123", "asdf1234", "zxcvbnm1", "iloveyou1", "iloveyou12", "welcome1", "welcome123", "welcome2024", "welcome2025",
    "welcome2026", "sunshine1", "princess1", "football1", "baseball1", "monkey123", "dragon123", "master123", "letmein1",
    "letmein123", "trustno1a", "superman1", "batman123", "charlie1", "michael1", "jennifer1", "jordan123", "hello123",
    "freedom1", "whatever1", "computer1", "internet1", "starwars1", "admin123", "admin1234", "administrator1", "changeme1",
    "summer2024", "summer2025", "summer2026", "winter2024", "winter2025", "winter2026", "spring2025", "autumn2025",
    "contraseña1", "contrasena1", "contrasena123", "clave1234", "clave12345", "chile123", "chile2024", "chile2025",
    "chile2026", "colocolo1", "colocolo123", "teamo123", "teamo1234", "santiago1", "santiago123", "hola1234", "hola12345",
    "paciente1", "paciente123", "portal123", "usuario1", "usuario123", "temporal1", "temporal123", "qwe12345", "1q2w3e4r",
    "1qaz2wsx", "zaq12wsx", "q1w2e3r4", "q1w2e3r4t5", "test1234", "testing1", "secret123", "mypassword1", "password2024",
    "password2025", "password2026",
  ],
);
