/** Why a new master password was refused, and how to pass: announced at once (role alert). */
export function PasswordProblems({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-500/60 bg-red-950/60 px-3 py-2 text-sm text-red-100">
      <p className="font-medium">This master password cannot be used yet:</p>
      <ul className="mt-1 list-disc pl-5">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}
